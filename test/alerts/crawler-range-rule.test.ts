import { describe, expect, it } from 'vitest';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { type DailyVisits, normalRange } from '../../src/alerts/crawler-normal-range.js';
import type { CrawlerPeriods, CrawlerState, PeriodCounts } from '../../src/alerts/detect-crawler.js';
import { chooseCrawlerRule, detectCrawlerVisits } from '../../src/alerts/detect-crawler-range.js';
import { addDays, dayNumber } from '../../src/utc-days.js';
import { BRAND, T0 } from './fixtures.js';

const END = '2025-03-01'; // a Saturday
const S: AlertSettings = DEFAULT_ALERT_SETTINGS;

/** Daily visits for `days` days ending `end`, from `visitsOn(daysBeforeEnd, weekday)`. */
function series(days: number, visitsOn: (ago: number, weekday: number) => number, end = END): DailyVisits {
  const out: Record<string, number> = {};
  for (let ago = days - 1; ago >= 0; ago--) {
    const date = addDays(end, -ago);
    out[date] = Math.round(visitsOn(ago, (dayNumber(date) + 4) % 7));
  }
  return out;
}

/** Weekends (Sat, Sun) run 45 % below weekdays. */
const seasonal = (weekday: number) => (weekday === 0 || weekday === 6 ? 550 : 1000);
/** A fixed wobble per week, ±3 %, the same every run. */
const wobble = (ago: number) => [1, 1.03, 0.97, 1.02, 0.98, 1.01, 0.99, 1][Math.floor(ago / 7) % 8]!;

function periodsOf(history: DailyVisits, end = END): CrawlerPeriods {
  const make = (last: string): PeriodCounts => {
    const days = Array.from({ length: 7 }, (_, i) => addDays(last, i - 6));
    const total = days.reduce((a, d) => a + (history[d] ?? 0), 0);
    return { start: days[0]!, end: last, total, byCrawler: { GPTBot: total } };
  };
  return { current: make(end), previous: make(addDays(end, -7)) };
}

function detect(history: DailyVisits, prev: CrawlerState | null = null, settings = S, end = END) {
  return detectCrawlerVisits(prev, { periods: periodsOf(history, end), history }, settings, BRAND, T0);
}

describe('normalRange', () => {
  it('needs the week and two whole weeks before it; counts history from the first visit', () => {
    const short = normalRange({ history: series(20, (_, w) => seasonal(w)), endDate: END });
    expect(short).toEqual({ historyDays: 20, range: null });
    const leading = series(30, (ago, w) => (ago >= 21 ? 0 : seasonal(w)));
    expect(normalRange({ history: leading, endDate: END })).toEqual({
      historyDays: 21,
      range: expect.anything(),
    });
    expect(normalRange({ history: {}, endDate: END })).toEqual({ historyDays: 0, range: null });
  });

  it('uses a plain recent baseline with two weeks and weekday medians from three', () => {
    const two = normalRange({ history: series(21, (ago, w) => seasonal(w) * wobble(ago)), endDate: END })
      .range!;
    expect(two).toMatchObject({ basis: 'recent', weeks: 2, start: '2025-02-23', end: END });
    const five = normalRange({ history: series(42, (ago, w) => seasonal(w) * wobble(ago)), endDate: END })
      .range!;
    expect(five).toMatchObject({ basis: 'weekday', weeks: 5 });
    // Weekday medians: one odd day in an earlier week does not move the expectation.
    const spiky = series(42, (ago, w) => (ago === 20 ? 9000 : seasonal(w)));
    expect(normalRange({ history: spiky, endDate: END }).range!.expected).toBe(5 * 1000 + 2 * 550);
  });

  it('looks back at most 8 weeks and skips weeks with unknown days', () => {
    const long = normalRange({ history: series(120, (_, w) => seasonal(w)), endDate: END }).range!;
    expect(long.weeks).toBe(8);
    const gappy: Record<string, number> = { ...series(35, (_, w) => seasonal(w)) };
    delete gappy[addDays(END, -10)];
    expect(normalRange({ history: gappy, endDate: END }).range!.weeks).toBe(3);
  });

  it('is narrow for a steady site and wide for a noisy one, never narrower than ±10 %', () => {
    const steady = normalRange({ history: series(56, (_, w) => seasonal(w)), endDate: END }).range!;
    expect([steady.lowPct, steady.highPct].map(Math.round)).toEqual([-10, 10]);
    const swings = [1, 1.3, 0.75, 1.2, 0.8, 1.25, 0.7, 1];
    const noisy = normalRange({
      history: series(56, (ago, w) => seasonal(w) * swings[Math.floor(ago / 7)]!),
      endDate: END,
    }).range!;
    expect(noisy.lowPct).toBeLessThan(-40);
    // A small site's week varies by its counting noise alone: 20 visits a week, about ±22 %.
    const small = normalRange({ history: series(56, (ago) => (ago % 7 < 6 ? 3 : 2)), endDate: END }).range!;
    expect(small.lowPct).toBeLessThan(-50);
  });

  it('learns only from days before learnBefore', () => {
    const fell = series(56, (ago, w) => seasonal(w) * (ago < 14 ? 0.5 : 1));
    const all = normalRange({ history: fell, endDate: END }).range!;
    const before = normalRange({ history: fell, endDate: END, learnBefore: addDays(END, -13) }).range!;
    expect(before.expected).toBe(6100);
    expect(before.changePct).toBeCloseTo(-50, 0);
    expect(before.weeks).toBe(6);
    expect(all.weeks).toBe(7);
  });
});

describe('detectCrawlerVisits by the usual range', () => {
  it('a dip that is normal for a noisy site says nothing, where the fixed −40 % would alert', () => {
    const swings = [0.78, 1.3, 0.75, 1.2, 0.8, 1.25, 0.7, 1.3];
    const history = series(56, (ago, w) => seasonal(w) * swings[Math.floor(ago / 7)]!);
    const r = detect(history);
    expect(r.choice).toEqual({ rule: 'range', why: 'range: 8 weeks of history' });
    expect(r.alerts).toEqual([]);
    const threshold = detect(history, null, { ...S, crawlerAlerts: 'threshold' });
    expect(threshold.choice.why).toBe('threshold −40 %: chosen in the settings');
    expect(threshold.alerts.map((a) => a.kind)).toEqual(['crawler_drop']);
  });

  it('a fall of 25 % on a steady site alerts once, naming the usual range', () => {
    const history = series(42, (ago, w) => seasonal(w) * wobble(ago) * (ago < 7 ? 0.75 : 1));
    const r = detect(history);
    expect(r.alerts).toHaveLength(1);
    const a = r.alerts[0]!;
    expect(a.kind).toBe('crawler_drop');
    expect(a.title).toBe('AI crawler visits down 26 %, below their usual range');
    expect(a.subject).toMatch(/^−26 % this week; usual range for these days −\d+ % to \+\d+ %$/);
    expect(a.whatChanged).toContain("AI crawlers visited Acme Analytics' site 4,576 times in the 7 days to");
    expect(a.whatChanged).toContain('about 6,162 is usual');
    expect(a.whyItMatters).toContain('learned weekday by weekday from the 5 weeks before');
    expect(a.key).toBe(`crawler_drop:${BRAND.id}:${END}:e1`);
    expect(r.next).toMatchObject({ dropping: true, episode: 1, since: '2025-02-23' });
    // The same fall the next day: no second alert.
    expect(detect(history, r.next).alerts).toEqual([]);
    // The fixed threshold does not see a 25 % fall at all.
    expect(detect(history, null, { ...S, crawlerAlerts: 'threshold' }).alerts).toEqual([]);
  });

  it('a fall that lasts stays a fall, and coming back inside gives one recovery notice', () => {
    const fallen = (days: number) => (ago: number, w: number) =>
      seasonal(w) * wobble(ago) * (ago < days ? 0.7 : 1);
    const first = detect(series(42, fallen(7)));
    expect(first.alerts.map((a) => a.kind)).toEqual(['crawler_drop']);
    // Three weeks later, still fallen: the fallen weeks are not learned as usual.
    const later = addDays(END, 21);
    const still = detect(series(63, fallen(28), later), first.next, S, later);
    expect(still.alerts).toEqual([]);
    expect(still.next.dropping).toBe(true);
    // Back to normal: one notice, then quiet.
    const back = addDays(END, 28);
    const recovered = series(70, (ago, w) => (ago < 7 ? seasonal(w) : fallen(35)(ago, w)), back);
    const r = detect(recovered, still.next, S, back);
    expect(r.alerts.map((a) => a.kind)).toEqual(['crawler_recovered']);
    expect(r.alerts[0]!.title).toBe('AI crawler visits back in their usual range');
    expect(r.alerts[0]!.key).toBe(`crawler_recovered:${BRAND.id}:${back}:e1`);
    expect(r.next).toMatchObject({ dropping: false, since: null });
    expect(detect(recovered, r.next, S, back).alerts).toEqual([]);
  });

  it('uses the threshold while history is short, and says so', () => {
    const history = series(9, () => 100);
    const r = detect(history);
    expect(r.choice).toEqual({
      rule: 'threshold',
      why: 'threshold −40 %: only 9 days of history so far; the usual range needs 21 days',
    });
    // Under the threshold a fall of 50 % still alerts, and the fall's start is kept.
    const fell = series(14, (ago) => (ago < 7 ? 50 : 100));
    const d = detect(fell);
    expect(d.alerts.map((a) => a.kind)).toEqual(['crawler_drop']);
    expect(d.next).toMatchObject({ dropping: true, since: '2025-02-23' });
  });
});

describe('chooseCrawlerRule', () => {
  it('says which rule applies and why', () => {
    const auto = { crawlerDropPct: 40 };
    expect(chooseCrawlerRule(auto, 35, true).why).toBe('range: 5 weeks of history');
    expect(chooseCrawlerRule({ ...auto, crawlerAlerts: 'range' as const }, 9, false)).toEqual({
      rule: 'threshold',
      why: 'threshold −40 %: only 9 days of history so far; the usual range needs 21 days',
    });
    expect(chooseCrawlerRule(auto, 0, false).why).toBe(
      'threshold −40 %: no AI crawler visits recorded yet; the usual range needs 21 days',
    );
    expect(chooseCrawlerRule(auto, 30, false).why).toContain('not enough whole weeks');
    expect(chooseCrawlerRule({ crawlerAlerts: 'threshold', crawlerDropPct: 25 }, 90, true)).toEqual({
      rule: 'threshold',
      why: 'threshold −25 %: chosen in the settings',
    });
  });
});
