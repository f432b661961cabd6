/**
 * The weekly summary's pure parts: which week is due (its day and time in the zone, late
 * once after a missed week, never for a week before the schedule was known), and what the
 * summary says (pages lost and won back inside the week only, figures week over week with
 * their days, alerts with or without assign/resolve states, hostile text escaped).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { composeWeekly, type WeeklyInput } from '../../src/alerts/compose-weekly.js';
import { periodsFromOverview } from '../../src/alerts/detect-crawler.js';
import {
  isWeeklyDedupeKey,
  latestWeeklyDate,
  nextWeeklyAt,
  type WeeklySchedule,
  weeklyDue,
  weeklyNow,
  weeklySchedule,
  weeklyScheduleKey,
  weekWindowMs,
} from '../../src/alerts/weekly-due.js';
import type { CitationHistoryResponse } from '../../src/api/schemas/citations.js';
import { buildWeeklyMessage, weeklyTitle } from '../../src/messages/weekly-message.js';
import { BRAND, ev, feed, overview } from './fixtures.js';

const BERLIN: WeeklySchedule = { day: 'monday', time: '09:00', timeZone: 'Europe/Berlin' };
const KEY = weeklyScheduleKey(BERLIN);
/** Monday Nov 23, 2026, 09:00 in Berlin (08:00 UTC). */
const DUE = Date.parse('2026-11-23T08:00:00Z');
const MIN = 60_000;
const DAY = 86_400_000;

describe('weeklyDue', () => {
  it('is due at its day and time in its zone, for the 7 whole days before, once', () => {
    expect(weeklyDue(DUE - MIN, BERLIN, { lastDate: '2026-11-16', schedule: KEY })).toBeNull();
    const due = weeklyDue(DUE + MIN, BERLIN, { lastDate: '2026-11-16', schedule: KEY });
    expect(due).toEqual({
      date: '2026-11-23',
      start: '2026-11-16',
      end: '2026-11-22',
      scheduledAtMs: DUE,
      late: false,
    });
    expect(weeklyDue(DUE + MIN, BERLIN, { lastDate: '2026-11-23', schedule: KEY })).toBeNull();
    // Every day of that week up to the next Monday's time: nothing more.
    for (let d = 1; d < 7; d++)
      expect(weeklyDue(DUE + d * DAY, BERLIN, { lastDate: '2026-11-23', schedule: KEY })).toBeNull();
    expect(latestWeeklyDate(DUE - MIN, BERLIN)).toBe('2026-11-16');
    expect(nextWeeklyAt(DUE - MIN, BERLIN)).toBe(DUE);
    expect(nextWeeklyAt(DUE + MIN, BERLIN)).toBe(DUE + 7 * DAY);
  });

  it('a missed week is due once, late; after several, only the latest', () => {
    const late = weeklyDue(DUE + 2 * DAY, BERLIN, { lastDate: '2026-11-16', schedule: KEY });
    expect(late).toMatchObject({ date: '2026-11-23', late: true });
    const weeksLater = weeklyDue(DUE + 20 * DAY, BERLIN, { lastDate: '2026-11-16', schedule: KEY });
    expect(weeksLater).toMatchObject({
      date: '2026-12-07',
      start: '2026-11-30',
      end: '2026-12-06',
      late: true,
    });
  });

  it('a schedule the bot has not sent under yet is sent on time only, and never before the subscription', () => {
    expect(weeklyDue(DUE + MIN, BERLIN, null)).toMatchObject({ date: '2026-11-23', late: false });
    expect(weeklyDue(DUE + 2 * DAY, BERLIN, null)).toBeNull();
    const moved = { lastDate: '2026-11-20', schedule: weeklyScheduleKey({ ...BERLIN, day: 'friday' }) };
    expect(weeklyDue(DUE + 2 * DAY, BERLIN, moved)).toBeNull();
    expect(weeklyDue(DUE + MIN, BERLIN, null, DUE + 1)).toBeNull();
  });

  it('follows the digest time and the default zone unless set; run-job covers the 7 days before today', () => {
    expect(weeklySchedule(DEFAULT_ALERT_SETTINGS, 'UTC')).toEqual({
      day: 'monday',
      time: '09:00',
      timeZone: 'UTC',
    });
    expect(
      weeklySchedule(
        { ...DEFAULT_ALERT_SETTINGS, digestTime: '07:30', weeklyDay: 'sunday', timezone: 'Asia/Tokyo' },
        'UTC',
      ),
    ).toEqual({ day: 'sunday', time: '07:30', timeZone: 'Asia/Tokyo' });
    expect(weeklyNow(Date.parse('2026-11-26T23:30:00Z'), 'Asia/Tokyo')).toMatchObject({
      date: '2026-11-27',
      start: '2026-11-20',
      end: '2026-11-26',
      late: false,
    });
    expect(weekWindowMs({ start: '2026-11-16', end: '2026-11-22' }, 'UTC')).toEqual({
      fromMs: Date.parse('2026-11-16T00:00:00Z'),
      toMs: Date.parse('2026-11-23T00:00:00Z'),
    });
  });

  it('tells weekly outbox keys from digest keys', () => {
    expect(isWeeklyDedupeKey('C1:weekly:brand:2026-11-23')).toBe(true);
    expect(isWeeklyDedupeKey('C1:chart:weekly:brand:2026-11-23')).toBe(true);
    expect(isWeeklyDedupeKey('C1:digest:brand:2026-11-23')).toBe(false);
    expect(isWeeklyDedupeKey('C1:chart:digest:brand:2026-11-23')).toBe(false);
  });
});

const WEEK = { date: '2026-11-23', start: '2026-11-16', end: '2026-11-22', scheduledAtMs: DUE, late: false };
const WINDOW = weekWindowMs(WEEK, 'UTC');

function history(days: Array<[string, number, number]>): CitationHistoryResponse {
  return {
    brand: { id: BRAND.id, name: BRAND.name },
    brand_time_series: days.map(([date, total_citations, brand_mentions]) => ({
      date,
      total_citations,
      brand_mentions,
      unique_sources: 1,
      avg_sentiment: null,
    })),
    competitor_time_series: {},
    snapshots_available: days.length,
    date_range: { start: days[0]?.[0] ?? null, end: days.at(-1)?.[0] ?? null },
  };
}

const fourteenDays = history(
  Array.from({ length: 14 }, (_, i) => {
    const date = new Date(Date.parse('2026-11-09T00:00:00Z') + i * DAY).toISOString().slice(0, 10);
    return [date, i < 7 ? 100 : 110, i < 7 ? 10 : 12] as [string, number, number];
  }),
);

function input(over: Partial<WeeklyInput> = {}): WeeklyInput {
  return {
    brand: BRAND,
    week: WEEK,
    window: WINDOW,
    feed: feed(
      [
        // Lost, then back within the week: won back.
        ev('lost', 'https://a.example/back', '2026-11-17T00:00:00Z'),
        ev('new', 'https://a.example/back', '2026-11-19T00:00:00Z', { appearance_count: 4 }),
        ev('lost', 'https://a.example/gone', '2026-11-20T00:00:00Z', { h1: '<!channel> *bold*' }),
        // Outside the week: before it, and on the summary's own day.
        ev('lost', 'https://a.example/old', '2026-11-15T23:00:00Z'),
        ev('lost', 'https://a.example/today', '2026-11-23T01:00:00Z'),
        ev('sentiment_changed', 'https://a.example/back', '2026-11-18T00:00:00Z'),
      ],
      '2026-11-22',
      '2026-11-15',
    ),
    history: fourteenDays,
    crawler: periodsFromOverview(overview('2026-11-22', { GPTBot: 700 }, { GPTBot: 350 }), '2026-11-22'),
    alerts: {
      opened: 3,
      kinds: ['citation_lost', 'crawler_drop'],
      acknowledgedBy: [{ userId: 'U1', count: 2 }],
    },
    ...over,
  };
}

describe('composeWeekly and its message', () => {
  it('counts the week only: a page lost, one won back; figures week over week with their days', () => {
    const w = composeWeekly(input());
    expect(w.key).toBe(`weekly:${BRAND.id}:2026-11-23`);
    expect(w.citations).toMatchObject({ status: 'ok', lostCount: 1, wonCount: 1 });
    expect(w.figures.map((f) => [f.id, f.current, f.previous, f.changePct])).toEqual([
      ['citedPages', 120, 118, (2 / 118) * 100],
      ['citations', 770, 700, 10],
      ['brandMentions', 84, 70, 20],
      ['aiCrawlerVisits', 350, 700, -50],
    ]);
    const text = JSON.stringify(buildWeeklyMessage(w).blocks);
    expect(weeklyTitle(w)).toBe('Acme Analytics: weekly summary for Nov 16–22, 2026');
    expect(text).toContain('*Citations*: 770 in Nov 16–22, 2026 vs 700 in Nov 9–15, 2026 (+10 %)');
    expect(text).toContain('*AI crawler visits*: 350 in Nov 16–22, 2026 vs 700 in Nov 9–15, 2026 (−50 %)');
    expect(text).toContain(
      '*Alerts*: 3 alerts sent to this channel (cited pages lost and crawler visits down).',
    );
    expect(text).toContain('Acknowledged by <@U1> (2).');
    // A page title is data: escaped, never a mention or bold.
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');
  });

  it('late, with alert states once the store has them, and failed parts said as such', () => {
    const w = composeWeekly(
      input({
        week: { ...WEEK, late: true },
        history: { error: 'The service did not answer.' },
        feed: { error: 'The service did not answer.' },
        alerts: {
          opened: 4,
          kinds: ['citation_lost'],
          acknowledgedBy: [],
          states: {
            resolved: 1,
            stillOpen: 3,
            openByOwner: [
              { userId: 'U2', count: 2 },
              { userId: null, count: 1 },
            ],
          },
        },
      }),
    );
    const m = buildWeeklyMessage(w, { dedupeKey: 'C1:weekly:x' });
    expect(weeklyTitle(w)).toBe(
      'Acme Analytics: weekly summary for Nov 16–22, 2026 (late: the bot was not running on Monday)',
    );
    expect(m.metadata.event_payload).toMatchObject({ dedupe_key: 'C1:weekly:x', late: true });
    const text = JSON.stringify(m.blocks);
    expect(text).toContain('*Alerts*: 4 opened (cited pages lost), 1 resolved, 3 still open.');
    expect(text).toContain('Open, by owner: <@U2> (2) and nobody yet (1).');
    expect(text).toContain('*Cited pages lost and won back*: unavailable: The service did not answer.');
    expect(text).toContain('*Citations*: unavailable');
    expect(text).toContain('*AI crawler visits*: 350');
    expect(m.text).toContain('(late: the bot was not running on Monday)');
  });

  it('a quiet week says so', () => {
    const w = composeWeekly(
      input({
        feed: feed([], '2026-11-22', '2026-11-15'),
        alerts: { opened: 0, kinds: [], acknowledgedBy: [] },
        history: history([]),
        crawler: { error: 'x' },
      }),
    );
    const text = JSON.stringify(buildWeeklyMessage(w).blocks);
    expect(text).toContain('no cited page was lost or won this week.');
    expect(text).toContain('*Alerts*: none this week.');
    expect(w.figures.map((f) => f.id)).toEqual(['citedPages']);
  });
});
