/** Payloads shaped as docs/api.md describes them (feed view, crawler overview, AI Pages record). */
import type { AiPagesRecord } from '../../src/api/schemas/ai-pages.js';
import type { CitationFeedResponse, FeedEvent } from '../../src/api/schemas/citations.js';
import type { CrawlerOverview } from '../../src/api/schemas/crawler.js';

export const BRAND = { id: '6f1c2d3e-0000-4000-8000-00000000a001', name: 'Acme Analytics' };
export const DAY = 86_400_000;
export const T0 = Date.parse('2025-03-01T06:00:00Z');

export function ev(
  event_type: FeedEvent['event_type'],
  url: string,
  timestamp: string,
  extra: Partial<FeedEvent> = {},
): FeedEvent {
  const domain = new URL(url).hostname;
  const base: FeedEvent = {
    event_type,
    url,
    domain,
    h1: null,
    source_type: 'organic',
    timestamp,
    sentiment: 70,
    prev_sentiment: null,
  };
  if (event_type === 'new') {
    Object.assign(base, { mentions_brand: true, appearance_count: 3, prompts: ['best analytics tool'] });
  }
  return { ...base, ...extra };
}

export function feed(
  events: FeedEvent[],
  currentDate = '2025-03-01',
  previousDate = '2025-02-22',
): CitationFeedResponse {
  return {
    brand: BRAND,
    events,
    current_snapshot_date: currentDate,
    previous_snapshot_date: previousDate,
    total_current: 120,
    total_previous: 118,
  };
}

/** A 14-day overview ending `end` with per-day counts split over crawlers. */
export function overview(
  end: string,
  previousByCrawler: Record<string, number>,
  currentByCrawler: Record<string, number>,
): CrawlerOverview {
  const endMs = Date.parse(`${end}T00:00:00Z`);
  const series = [];
  for (let i = 13; i >= 0; i--) {
    const date = new Date(endMs - i * DAY).toISOString().slice(0, 10);
    const src = i >= 7 ? previousByCrawler : currentByCrawler;
    // Spread each crawler's weekly count over 7 days; the remainder lands on the last day.
    const by_crawler: Record<string, number> = {};
    for (const [name, total] of Object.entries(src)) {
      const dayIndex = i >= 7 ? 13 - i : 6 - i;
      const per = Math.floor(total / 7);
      by_crawler[name] = dayIndex === 6 ? total - per * 6 : per;
    }
    series.push({ date, count: Object.values(by_crawler).reduce((a, b) => a + b, 0), by_crawler });
  }
  return overviewFromSeries(BRAND.id, series, end);
}

type SeriesPoint = CrawlerOverview['chart']['series'][number];

/** A `custom` 14-day overview around a daily series; the hero figures follow from it. */
export function overviewFromSeries(brandId: string, series: SeriesPoint[], end: string): CrawlerOverview {
  const total = series.reduce((a, p) => a + p.count, 0);
  return {
    brand_id: brandId,
    range: { range_preset: 'custom', start: series[0]!.date, end, days: series.length, compare_to: 'none' },
    state: { has_tracking_id: true, has_historical_data: true, tracking_id: 'trk_1' },
    hero: {
      total_visits: total,
      total_visits_change: null,
      unique_pages: 40,
      unique_pages_change: 0,
      avg_daily_visits: total / series.length,
      top_crawler: 'GPTBot',
    },
    chart: {
      series,
      distribution: [],
      bot_type_summary: { training: 0, search: 0, interaction: 0, agent: 0, other: 0 },
    },
    breakdown: { distribution: [], top_crawler: 'GPTBot', search_bot_visits: 0, crawl_efficiency_pct: 80 },
    top_pages: [],
    recent_preview: [],
  };
}

export function aiPages(
  percentage_used: number,
  reset_date = '2025-04-01T00:00:00Z',
  enabled = true,
): AiPagesRecord {
  return {
    brand: { ...BRAND, website: 'https://acme.example' },
    config: {
      enabled,
      domain: 'acme.example',
      platform: 'cloudflare',
      features: ['structureddatainjection', 'aisummaryblock'],
      crawlers: ['gptbot', 'claudebot'],
    },
    usage: {
      requests_this_month: Math.round(percentage_used * 1000),
      requests_limit: 100_000,
      percentage_used,
      reset_date,
    },
  };
}
