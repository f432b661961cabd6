import { describe, expect, it } from 'vitest';
import {
  dayRangeText,
  daysIncluded,
  dayText,
  lagDays,
  periodText,
  shortDayText,
  timeText,
} from '../../src/figures/day-text.js';
import { slackDate, slackDay, slackPeriod } from '../../src/messages/mrkdwn.js';
import { formatSlackDate } from '../../src/terminal/format-slack-date.js';

const at = (iso: string) => Date.parse(iso);

describe('the one date style', () => {
  it('writes a day and a moment the way Slack writes its short date', () => {
    expect(dayText('2026-11-27')).toBe('Nov 27, 2026');
    expect(dayText('2026-11-27T20:33:00Z')).toBe('Nov 27, 2026');
    expect(shortDayText('2026-12-01')).toBe('Dec 1');
    expect(timeText(at('2026-11-27T20:33:10Z'))).toBe('Nov 27, 2026 at 8:33 PM UTC');
    expect(timeText(Number.NaN)).toBe('unknown time');
    expect(dayText('not a date')).toBe('not a date');
  });

  it('falls back to that style in a date token, which Slack renders the same way', () => {
    const token = slackDay('2026-11-27');
    expect(token).toBe('<!date^1795780800^{date_short}|Nov 27, 2026>');
    const [, seconds, format] = /^<!date\^(\d+)\^([^|]+)\|/.exec(token)!;
    // Slack's short date is the fallback's very words, in any zone from UTC−11 to +11, and
    // on the day itself too: no "Today" inside a sentence ("7 days to Today").
    for (const timeZone of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo', 'Pacific/Pago_Pago']) {
      for (const now of ['2027-03-01T00:00:00Z', '2026-11-27T15:00:00Z']) {
        expect(formatSlackDate(Number(seconds), format!, { timeZone, nowMs: at(now) })).toBe('Nov 27, 2026');
      }
    }
    expect(slackDate(at('2026-11-27T20:33:00Z'))).toBe(
      '<!date^1795811580^{date_short_pretty} at {time}|Nov 27, 2026 at 8:33 PM UTC>',
    );
    expect(slackDay('<!channel>')).toBe('&lt;!channel&gt;');
  });

  it('states a period by its real end, and says when the data lags', () => {
    expect(daysIncluded('2026-11-21', '2026-11-27')).toBe(7);
    expect(daysIncluded('2026-11-27', '2026-11-21')).toBe(0);
    expect(periodText(7, '2026-11-27')).toBe('7 days to Nov 27, 2026');
    // Daily figures for yesterday are current.
    expect(lagDays('2026-11-26', at('2026-11-27T09:00:00Z'))).toBe(0);
    expect(periodText(7, '2026-11-27', at('2026-11-27T09:00:00Z'))).toBe('7 days to Nov 27, 2026');
    expect(periodText(7, '2026-11-15', at('2026-11-27T09:00:00Z'))).toBe(
      '7 days to Nov 15, 2026 (the latest the service has, 12 days ago)',
    );
    expect(slackPeriod(1, '2026-11-15', at('2026-11-27T09:00:00Z'))).toBe(
      '1 day to <!date^1794744000^{date_short}|Nov 15, 2026> (the latest the service has, 12 days ago)',
    );
  });
});

describe('dayRangeText', () => {
  it('says a run of days once: within a month, across months, across years, one day', () => {
    expect(dayRangeText('2026-11-16', '2026-11-22')).toBe('Nov 16–22, 2026');
    expect(dayRangeText('2026-11-30', '2026-12-06')).toBe('Nov 30 – Dec 6, 2026');
    expect(dayRangeText('2026-12-28', '2027-01-03')).toBe('Dec 28, 2026 – Jan 3, 2027');
    expect(dayRangeText('2026-11-16', '2026-11-16')).toBe('Nov 16, 2026');
    expect(dayRangeText('soon', 'later')).toBe('soon – later');
  });
});
