/**
 * Fake API payloads for the alerting benchmark, shaped as docs/api.md describes them. Strings
 * that repeat in real payloads (timestamps, domains) are shared so that generating the
 * input does not dominate the garbage the measured code has to live with.
 */
import type { AiPagesRecord } from '../src/api/schemas/ai-pages.js';
import type { CitationFeedResponse, FeedEvent } from '../src/api/schemas/citations.js';
import type { CrawlerOverview } from '../src/api/schemas/crawler.js';
import { overviewFromSeries } from '../test/alerts/fixtures.js';

export const DAY = 86_400_000;
export const START = Date.parse('2025-03-01T00:00:00Z');
/** When the measured run happens: six hours into the day of the feed's newest snapshot. */
export const BENCH_NOW_MS = START + 6 * 3_600_000;
const CRAWLERS = ['GPTBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'Bytespider', 'CCBot'];
const DOMAINS = Array.from({ length: 150 }, (_, i) => `site${i}.example.com`);
const PAST = Array.from({ length: 8 }, (_, d) => new Date(START - d * DAY).toISOString());

export const brandOf = (i: number) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `Brand ${i}`,
});
const urlOf = (b: number, j: number) => `https://${DOMAINS[j % 150]}/articles/brand-${b}/page-${j}`;

// Object literals of one shape (no spreads), so generating 500 k of them stays cheap.
function event(b: number, j: number, timestamp: string, kind: number, fresh: boolean): FeedEvent {
  const url = urlOf(b, j);
  const domain = DOMAINS[j % 150]!;
  switch (kind) {
    case 0:
      return {
        event_type: 'new',
        url,
        domain,
        h1: null,
        source_type: 'organic',
        timestamp,
        sentiment: 70,
        prev_sentiment: null,
        mentions_brand: true,
        appearance_count: 2,
        prompts: [],
      };
    case 1:
      return {
        event_type: 'lost',
        url,
        domain,
        h1: null,
        source_type: 'organic',
        timestamp,
        sentiment: null,
        prev_sentiment: null,
      };
    case 2:
      return {
        event_type: 'sentiment_changed',
        url,
        domain,
        h1: null,
        source_type: 'organic',
        timestamp,
        sentiment: fresh ? 30 : 50,
        prev_sentiment: fresh ? 75 : 60,
      };
    default:
      return {
        event_type: 'competitor_appeared',
        url,
        domain,
        h1: null,
        source_type: 'organic',
        timestamp,
        sentiment: null,
        prev_sentiment: null,
        competitor: fresh ? 'Newcomer' : 'Rival',
      };
  }
}

/**
 * A brand's citation feed over a 7-day window: `known` events the last run already saw
 * (spread over the past week) plus `fresh` ones from today, on URLs old and new.
 */
export function citationFeed(b: number, known: number, fresh: number): CitationFeedResponse {
  const events: FeedEvent[] = [];
  // Known: 6 in 10 new, 2 lost, 1 sentiment, 1 competitor, as a real week looks.
  for (let j = 0; j < known; j++) {
    const r = j % 10;
    events.push(event(b, j, PAST[1 + (j % 7)]!, r < 6 ? 0 : r < 8 ? 1 : r < 9 ? 2 : 3, false));
  }
  for (let k = 0; k < fresh; k++) {
    const j = k % 2 === 0 ? k * 7 : 10_000 + k;
    events.push(event(b, j, PAST[0]!, [0, 0, 1, 2, 3][k % 5]!, true));
  }
  return {
    brand: brandOf(b),
    events,
    current_snapshot_date: PAST[0]!.slice(0, 10),
    previous_snapshot_date: PAST[7]!.slice(0, 10),
    total_current: 480,
    total_previous: 470,
  };
}

/** 14 days ending `end`; every 10th brand sees its crawler visits halve this week. */
export function crawlerOverview(b: number, end: string): CrawlerOverview {
  const endMs = Date.parse(`${end}T00:00:00Z`);
  const factor = b % 10 === 0 ? 0.5 : 1;
  const series = Array.from({ length: 14 }, (_, i) => {
    const current = i >= 7;
    const by_crawler = Object.fromEntries(
      CRAWLERS.map((c, k) => [c, Math.round((40 + k * 10) * (current ? factor : 1))]),
    );
    return {
      date: new Date(endMs - (13 - i) * DAY).toISOString().slice(0, 10),
      count: Object.values(by_crawler).reduce((a, n) => a + n, 0),
      by_crawler,
    };
  });
  return overviewFromSeries(brandOf(b).id, series, end);
}

export function aiPagesRecord(b: number, pct: number): AiPagesRecord {
  return {
    brand: { ...brandOf(b), website: 'https://example.com' },
    config: {
      enabled: true,
      domain: 'example.com',
      platform: 'cloudflare',
      features: [],
      crawlers: ['gptbot'],
    },
    usage: {
      requests_this_month: pct * 1000,
      requests_limit: 100_000,
      percentage_used: pct,
      reset_date: '2025-04-01T00:00:00Z',
    },
  };
}
