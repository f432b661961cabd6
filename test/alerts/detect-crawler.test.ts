import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import {
  type CrawlerPeriods,
  type CrawlerState,
  crawlerChangePct,
  crawlersThatFellMost,
  detectCrawler,
  periodsFromOverview,
} from '../../src/alerts/detect-crawler.js';
import { BRAND, overview, T0 } from './fixtures.js';

const S = DEFAULT_ALERT_SETTINGS;

function periods(previous: number, current: number): CrawlerPeriods {
  return {
    previous: { start: '2025-02-16', end: '2025-02-22', total: previous, byCrawler: { GPTBot: previous } },
    current: { start: '2025-02-23', end: '2025-03-01', total: current, byCrawler: { GPTBot: current } },
  };
}

/** Runs weekly totals (previous, current) through the detector in order. */
function run(pairs: [number, number][], start: CrawlerState | null = null) {
  let state = start;
  const kinds: string[] = [];
  for (const [p, c] of pairs) {
    const r = detectCrawler(state, periods(p, c), S, BRAND, T0);
    kinds.push(...r.alerts.map((a) => a.kind));
    state = r.next;
  }
  return { kinds, state };
}

describe('periodsFromOverview', () => {
  it('splits a 14-day series into the last 7 days and the 7 before, per crawler', () => {
    const o = overview('2025-03-01', { GPTBot: 700, ClaudeBot: 300 }, { GPTBot: 140, ClaudeBot: 280 });
    const p = periodsFromOverview(o, '2025-03-01');
    expect(p.current).toMatchObject({ start: '2025-02-23', end: '2025-03-01', total: 420 });
    expect(p.previous).toMatchObject({ start: '2025-02-16', end: '2025-02-22', total: 1000 });
    expect(p.current.byCrawler).toEqual({ GPTBot: 140, ClaudeBot: 280 });
    expect(p.previous.byCrawler).toEqual({ GPTBot: 700, ClaudeBot: 300 });
  });

  it('ignores days outside both periods and accepts timestamps as dates', () => {
    const o = overview('2025-03-01', { GPTBot: 70 }, { GPTBot: 70 });
    o.chart.series.push({ date: '2025-03-02T00:00:00Z', count: 999, by_crawler: { GPTBot: 999 } });
    o.chart.series.push({ date: '2025-01-01', count: 999, by_crawler: { GPTBot: 999 } });
    o.chart.series[0]!.date = `${o.chart.series[0]!.date}T00:00:00Z`;
    const p = periodsFromOverview(o, '2025-03-01');
    expect([p.previous.total, p.current.total]).toEqual([70, 70]);
  });

  it('rejects a malformed end date', () => {
    expect(() => periodsFromOverview(overview('2025-03-01', {}, {}), 'yesterday')).toThrow(RangeError);
  });
});

describe('detectCrawler', () => {
  it('alerts on a fall of 40 % or more, on first sight, naming the crawlers that fell most', () => {
    const o = overview(
      '2025-03-01',
      { GPTBot: 700, ClaudeBot: 300, PerplexityBot: 50 },
      { GPTBot: 140, ClaudeBot: 280, PerplexityBot: 60 },
    );
    const p = periodsFromOverview(o, '2025-03-01');
    const r = detectCrawler(null, p, S, BRAND, T0);
    expect(r.alerts).toHaveLength(1);
    const a = r.alerts[0]!;
    expect(a.kind).toBe('crawler_drop');
    expect(a.title).toBe('AI crawler visits down 54 %');
    expect(a.before).toBe('1,050 visits');
    expect(a.after).toBe('480 visits');
    expect(a.whatChanged).toContain('GPTBot 700 → 140');
    expect(a.whatChanged).toContain('ClaudeBot 300 → 280');
    expect(a.whatChanged).not.toContain('PerplexityBot');
    // Its button opens the overview on the days it compared (the 7 to 1 March, with the 7 before).
    expect(a.open).toEqual({ view: 'crawler', params: { range: '2025-02-23..2025-03-01', compare: 'true' } });
    expect(r.next.dropping).toBe(true);
  });

  it('does not alert on a fall just under the threshold', () => {
    expect(run([[100, 61]]).kinds).toEqual([]);
    expect(run([[100, 60]]).kinds).toEqual(['crawler_drop']);
  });

  it('hysteresis: no repeat while dropping, one recovery notice under 20 %, then can alert again', () => {
    const { kinds } = run([
      [100, 50], // −50 %: drop
      [100, 45], // still dropping
      [100, 70], // −30 %: between the levels, still dropping
      [100, 81], // −19 %: recovered
      [100, 95], // fine
      [100, 55], // −45 %: a new drop
    ]);
    expect(kinds).toEqual(['crawler_drop', 'crawler_recovered', 'crawler_drop']);
  });

  it('gives each drop episode its own key', () => {
    let state: CrawlerState | null = null;
    const keys: string[] = [];
    for (const [p, c] of [
      [100, 50],
      [100, 100],
      [100, 50],
    ] as const) {
      const r = detectCrawler(state, periods(p, c), S, BRAND, T0);
      keys.push(...r.alerts.map((a) => a.key));
      state = r.next;
    }
    expect(new Set(keys).size).toBe(3);
  });

  it('zero previous visits: no alert and the state is kept', () => {
    const dropping: CrawlerState = { dropping: true, episode: 1, lastChangePct: -50 };
    const r = detectCrawler(dropping, periods(0, 0), S, BRAND, T0);
    expect(r.alerts).toEqual([]);
    expect(r.next).toBe(dropping);
    expect(crawlerChangePct(periods(0, 10))).toBeNull();
    expect(detectCrawler(null, periods(0, 10), S, BRAND, T0).alerts).toEqual([]);
  });

  it('honours per-subscription levels', () => {
    const settings = { ...S, crawlerDropPct: 20, crawlerRecoveryPct: 5 };
    const r1 = detectCrawler(null, periods(100, 79), settings, BRAND, T0);
    expect(r1.alerts.map((a) => a.kind)).toEqual(['crawler_drop']);
    expect(detectCrawler(r1.next, periods(100, 94), settings, BRAND, T0).alerts).toEqual([]);
    expect(detectCrawler(r1.next, periods(100, 96), settings, BRAND, T0).alerts.map((a) => a.kind)).toEqual([
      'crawler_recovered',
    ]);
  });

  it('a rise never alerts unless recovering', () => {
    expect(run([[100, 300]]).kinds).toEqual([]);
  });

  it('crawlersThatFellMost orders by visits lost', () => {
    const p: CrawlerPeriods = {
      previous: { start: 'a', end: 'b', total: 0, byCrawler: { A: 100, B: 500, C: 10, D: 50 } },
      current: { start: 'c', end: 'd', total: 0, byCrawler: { A: 90, B: 100, C: 20, E: 5 } },
    };
    expect(crawlersThatFellMost(p).map((m) => m.crawler)).toEqual(['B', 'D', 'A']);
  });
});
