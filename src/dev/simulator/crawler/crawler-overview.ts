/**
 * GET /crawler/overview (docs/api.md §4.9). `total_visits_change` is a percentage against the
 * previous period of the same length (docs/api.md §10: -42.5 means -42.5 %), null without
 * `compare_to=previous_period`.
 */

import { dateOfDay } from '../../../utc-days.js';
import type { BrandProfile } from '../brand-profiles.js';
import { enumParam, type RequestInput } from '../params.js';
import { shortId } from '../random.js';
import type { AccessPolicy } from './access-policy.js';
import { CRAWLERS } from './crawlers.js';
import { parseDateRange, rangeJson } from './date-range.js';
import { crawlEfficiency, type RangeTotals, type TrafficModel } from './traffic-model.js';

export interface CrawlerContext {
  readonly profile: BrandProfile;
  readonly policy: AccessPolicy;
  readonly model: TrafficModel;
  readonly input: RequestInput;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function percentChange(current: number, previous: number): number {
  if (previous === 0) return current === 0 ? 0 : 100;
  return round1(((current - previous) / previous) * 100);
}

function distributionOf(totals: RangeTotals) {
  return CRAWLERS.map((c, ci) => ({
    crawler: c.name,
    count: totals.byCrawler[ci]!,
    percentage: totals.total === 0 ? 0 : round1((totals.byCrawler[ci]! / totals.total) * 100),
  }))
    .filter((d) => d.count > 0)
    .sort((a, b) => b.count - a.count || (a.crawler < b.crawler ? -1 : 1));
}

const uniquePages = (totals: RangeTotals) => totals.byPage.filter((row) => row.some((n) => n > 0)).length;

/** The ten most visited pages in the range, each with its top four crawlers. */
function topPagesOf(model: TrafficModel, totals: RangeTotals) {
  return model.pages
    .map((page, pi) => {
      const row = totals.byPage[pi]!;
      const crawlers = CRAWLERS.map((c, ci) => ({ name: c.name, n: row[ci]! }))
        .filter((x) => x.n > 0)
        .sort((a, b) => b.n - a.n)
        .slice(0, 4)
        .map((x) => x.name);
      return { url: page.url, count: row.reduce((a, b) => a + b, 0), crawlers };
    })
    .filter((p) => p.count > 0)
    .sort((a, b) => b.count - a.count || (a.url < b.url ? -1 : 1))
    .slice(0, 10);
}

export function overviewView(ctx: CrawlerContext) {
  const { model, profile, policy, input } = ctx;
  const range = parseDateRange(input, model.today);
  const compareTo = enumParam(input, 'compare_to', ['none', 'previous_period'] as const, 'none');
  const totals = model.range(range.startDay, range.endDay);
  const previous =
    compareTo === 'previous_period' ? model.range(range.startDay - range.days, range.startDay - 1) : null;
  const distribution = distributionOf(totals);
  const topCrawler = distribution[0]?.crawler ?? null;

  const botTypes = { training: 0, search: 0, interaction: 0, agent: 0, other: 0 };
  CRAWLERS.forEach((c, ci) => {
    botTypes[c.botType] += totals.byCrawler[ci]!;
  });

  const topPages = topPagesOf(model, totals);

  const recent: ReturnType<TrafficModel['eventsOfDay']> = [];
  for (let day = range.endDay; day >= range.startDay && recent.length < 10; day--) {
    recent.push(...model.eventsOfDay(day).slice(0, 10 - recent.length));
  }

  return {
    brand_id: profile.id,
    range: rangeJson(range, compareTo),
    state: {
      has_tracking_id: true,
      has_historical_data: model.today - model.trackingStartDay >= 7,
      tracking_id: `vbt_${shortId(`tracking:${profile.id}`, 16)}`,
    },
    hero: {
      total_visits: totals.total,
      total_visits_change: previous ? percentChange(totals.total, previous.total) : null,
      unique_pages: uniquePages(totals),
      unique_pages_change: previous ? percentChange(uniquePages(totals), uniquePages(previous)) : null,
      avg_daily_visits: round1(totals.total / range.days),
      top_crawler: topCrawler,
    },
    chart: {
      series: totals.days.map((day, di) => ({
        date: dateOfDay(day),
        count: totals.byDay[di]!.reduce((a, b) => a + b, 0),
        by_crawler: Object.fromEntries(
          CRAWLERS.map((c, ci) => [c.name, totals.byDay[di]![ci]!] as const).filter(([, n]) => n > 0),
        ),
      })),
      distribution,
      bot_type_summary: botTypes,
    },
    breakdown: {
      distribution,
      top_crawler: topCrawler,
      search_bot_visits: CRAWLERS.reduce(
        (s, c, ci) => s + (c.intent === 'search' ? totals.byCrawler[ci]! : 0),
        0,
      ),
      crawl_efficiency_pct: crawlEfficiency(policy, totals),
    },
    // Per-crawler counts of the previous period let a client name the crawlers that fell.
    ...(previous
      ? { previous_period: { total_visits: previous.total, distribution: distributionOf(previous) } }
      : {}),
    top_pages: topPages,
    recent_preview: recent.map((e) => ({
      id: e.id,
      url: e.url,
      platform: e.platform,
      crawler: e.crawler,
      intent: e.intent,
      visited_at: e.visited_at,
      status_code: e.status_code,
    })),
  };
}
