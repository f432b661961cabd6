import { describe, expect, it } from 'vitest';
import { formatSlackDate } from '../../src/terminal/format-slack-date.js';

// 2023-11-14T22:13:20Z: a Tuesday evening in UTC, already Wednesday in Tokyo.
const T = 1_700_000_000;
const at = (iso: string) => ({ timeZone: 'UTC', nowMs: Date.parse(iso) });

describe('formatSlackDate', () => {
  it('writes every date and time token as Slack does, in the given zone', () => {
    const o = at('2024-06-01T00:00:00Z');
    expect(formatSlackDate(T, '{date_num}', o)).toBe('2023-11-14');
    expect(formatSlackDate(T, '{date_slash}', o)).toBe('14/11/2023');
    expect(formatSlackDate(T, '{date}', o)).toBe('November 14th, 2023');
    expect(formatSlackDate(T, '{date_short}', o)).toBe('Nov 14, 2023');
    expect(formatSlackDate(T, '{date_long}', o)).toBe('Tuesday, November 14th, 2023');
    expect(formatSlackDate(T, '{date_long_full}', o)).toBe('November 14, 2023');
    expect(formatSlackDate(T, '{time}', o)).toBe('10:13 PM');
    expect(formatSlackDate(T, '{time_secs}', o)).toBe('10:13:20 PM');
    expect(formatSlackDate(T, 'on {date_short_pretty} at {time}', o)).toBe('on Nov 14, 2023 at 10:13 PM');
    expect(formatSlackDate(T, '{time}', { ...o, timeZone: 'Asia/Tokyo' })).toBe('7:13 AM');
    expect(formatSlackDate(T, '{date_long}', { ...o, timeZone: 'Asia/Tokyo' })).toBe(
      'Wednesday, November 15th, 2023',
    );
  });

  it('says today, yesterday and tomorrow in the reader’s zone, capitalised at the start', () => {
    expect(formatSlackDate(T, '{date_short_pretty} at {time}', at('2023-11-14T23:59:00Z'))).toBe(
      'Today at 10:13 PM',
    );
    expect(formatSlackDate(T, 'since {date_pretty}', at('2023-11-15T08:00:00Z'))).toBe('since yesterday');
    expect(formatSlackDate(T, '{date_long_pretty}', at('2023-11-13T08:00:00Z'))).toBe('Tomorrow');
    // 08:00 on the 15th in UTC is the 15th in Tokyo too, where T is already the 15th.
    expect(
      formatSlackDate(T, '{date_pretty}', {
        timeZone: 'Asia/Tokyo',
        nowMs: Date.parse('2023-11-15T08:00:00Z'),
      }),
    ).toBe('Today');
    expect(formatSlackDate(T, '{day_divider_pretty}', at('2023-12-25T00:00:00Z'))).toBe(
      'Tuesday, November 14th',
    );
    expect(formatSlackDate(T, '{day_divider_pretty}', at('2024-12-25T00:00:00Z'))).toBe(
      'Tuesday, November 14th, 2023',
    );
  });

  it('says how long ago, or how soon', () => {
    expect(formatSlackDate(T, '{ago}', at('2023-11-14T22:16:20Z'))).toBe('3 minutes ago');
    expect(formatSlackDate(T, '{ago}', at('2023-11-14T20:13:20Z'))).toBe('In 2 hours');
    expect(formatSlackDate(T, 'seen {ago}', at('2023-11-17T22:13:20Z'))).toBe('seen 3 days ago');
    expect(formatSlackDate(T, '{ago}', at('2023-11-14T22:13:20Z'))).toBe('Now');
  });

  it('gives up (so the fallback shows) on a token Slack does not know or a zone Intl does not', () => {
    expect(formatSlackDate(T, '{date} {nonsense}', at('2024-01-01T00:00:00Z'))).toBeUndefined();
    expect(formatSlackDate(T, '{date}', { timeZone: 'Mars/Olympus', nowMs: 0 })).toBeUndefined();
    expect(formatSlackDate(Number.NaN, '{date}', at('2024-01-01T00:00:00Z'))).toBeUndefined();
  });
});
