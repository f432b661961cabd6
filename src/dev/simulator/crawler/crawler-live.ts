/**
 * GET /crawler/live: the Live tab's activity stream, pages and sessions views. The range
 * defaults to 24h here (it is the live view); the other presets and custom work too.
 */
import { enumParam } from '../params.js';
import { crawlerMatches, filtersJson, parseFilters, statusMatches } from './crawler-filters.js';
import type { CrawlerContext } from './crawler-overview.js';
import { findCrawler } from './crawlers.js';
import { cursorPage } from './cursor-page.js';
import { parseDateRange, rangeJson } from './date-range.js';
import type { VisitEvent } from './traffic-model.js';

const VIEWS = ['activity', 'pages', 'sessions'] as const;
const HOUR_MS = 3_600_000;

export function liveView(ctx: CrawlerContext) {
  const { model, input, profile } = ctx;
  const view = enumParam(input, 'view', VIEWS, 'activity');
  const range = parseDateRange(input, model.today, '24h');
  const filters = parseFilters(input);

  const events: VisitEvent[] = [];
  for (let day = range.endDay; day >= range.startDay; day--) {
    for (const e of model.eventsOfDay(day)) {
      if (!crawlerMatches(filters, findCrawler(e.crawler_id)!)) continue;
      if (!statusMatches(filters, e.status_code)) continue;
      if (filters.search && !`${e.url} ${e.crawler}`.toLowerCase().includes(filters.search)) continue;
      events.push(e);
    }
  }

  const summary = {
    total_visits: events.length,
    unique_pages: new Set(events.map((e) => e.url)).size,
    unique_crawlers: new Set(events.map((e) => e.crawler)).size,
    error_rate_pct:
      events.length === 0
        ? 0
        : Math.round((events.filter((e) => e.status_code >= 400).length / events.length) * 1000) / 10,
  };

  const items: readonly unknown[] =
    view === 'activity' ? events : view === 'pages' ? pagesOf(events) : sessionsOf(events);
  const page = cursorPage(input, items);
  return {
    brand_id: profile.id,
    view,
    range: rangeJson(range),
    filters: filtersJson(filters),
    summary,
    items: page.items,
    meta: page.meta,
  };
}

function pagesOf(events: readonly VisitEvent[]) {
  const byUrl = new Map<string, VisitEvent[]>();
  for (const e of events) pushTo(byUrl, e.url, e);
  return [...byUrl]
    .map(([url, list]) => ({
      url,
      path: list[0]!.path,
      visits: list.length,
      crawlers: [...new Set(list.map((e) => e.crawler))].sort(),
      last_visited_at: list[0]!.visited_at,
      status_codes: countBy(list.map((e) => String(e.status_code))),
    }))
    .sort((a, b) => b.visits - a.visits || (a.url < b.url ? -1 : 1));
}

/** A session: one crawler's visits within the same clock hour. */
function sessionsOf(events: readonly VisitEvent[]) {
  const sessions = new Map<string, VisitEvent[]>();
  for (const e of events) {
    const key = `${e.crawler_id}:${Math.floor(Date.parse(e.visited_at) / HOUR_MS)}`;
    pushTo(sessions, key, e);
  }
  return [...sessions]
    .map(([key, list]) => ({
      id: `ses_${key.replace(':', '_')}`,
      crawler: list[0]!.crawler,
      platform: list[0]!.platform,
      intent: list[0]!.intent,
      started_at: list.at(-1)!.visited_at,
      ended_at: list[0]!.visited_at,
      requests: list.length,
      unique_pages: new Set(list.map((e) => e.url)).size,
      status_codes: countBy(list.map((e) => String(e.status_code))),
    }))
    .sort((a, b) => (a.ended_at < b.ended_at ? 1 : a.ended_at > b.ended_at ? -1 : a.id < b.id ? -1 : 1));
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function countBy(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}
