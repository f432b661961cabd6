/**
 * GET /crawler/pages: the Pages tab's lenses (pages, paths, bots) with the status filter
 * (page-status vocabulary or `all`), dashboard filters, sorting and cursor paging.
 */
import { enumParam } from '../params.js';
import type { AccessPolicy } from './access-policy.js';
import { crawlerMatches, filtersJson, parseFilters } from './crawler-filters.js';
import type { CrawlerContext } from './crawler-overview.js';
import { CRAWLERS } from './crawlers.js';
import { cursorPage } from './cursor-page.js';
import { parseDateRange, rangeJson } from './date-range.js';
import {
  PAGE_STATUSES,
  type PageStatus,
  type RangeTotals,
  type SitePage,
  type TrafficModel,
} from './traffic-model.js';

const LENSES = ['pages', 'paths', 'bots'] as const;
const STATUS_FILTER = ['all', ...PAGE_STATUSES] as const;
const SORTS = ['visits', 'url', 'last_crawled'] as const;

interface PageRow {
  id: string;
  url: string;
  path: string;
  title: string;
  section: string;
  status: PageStatus;
  visits: number;
  by_crawler: Record<string, number>;
  last_crawled_at: string | null;
}

/** Every site page with its visits in the range, counting only the crawlers `include` keeps. */
export function pageRows(
  model: TrafficModel,
  totals: RangeTotals,
  include: (crawlerIndex: number) => boolean = () => true,
): PageRow[] {
  return model.pages.map((page: SitePage, pi) => {
    const byCrawler: Record<string, number> = {};
    let visits = 0;
    CRAWLERS.forEach((c, ci) => {
      const n = totals.byPage[pi]![ci]!;
      if (!include(ci) || n === 0) return;
      byCrawler[c.name] = n;
      visits += n;
    });
    const last = model.lastCrawledAt(page);
    return {
      id: page.id,
      url: page.url,
      path: page.path,
      title: page.title,
      section: page.section,
      status: page.status,
      visits,
      by_crawler: byCrawler,
      last_crawled_at: last === null ? null : new Date(last).toISOString(),
    };
  });
}

const topKeys = (counts: Record<string, number>, n: number) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => k);

export function pathRows(rows: readonly PageRow[]) {
  const sections = [...new Set(rows.map((r) => r.section))];
  return sections.map((section) => {
    const inSection = rows.filter((r) => r.section === section);
    const byCrawler: Record<string, number> = {};
    for (const r of inSection)
      for (const [k, n] of Object.entries(r.by_crawler)) byCrawler[k] = (byCrawler[k] ?? 0) + n;
    const statusBreakdown = Object.fromEntries(
      PAGE_STATUSES.map((s) => [s, inSection.filter((r) => r.status === s).length]),
    );
    const lastCrawled = inSection
      .map((r) => r.last_crawled_at)
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1);
    return {
      id: section,
      path: section,
      pages: inSection.length,
      visits: inSection.reduce((s, r) => s + r.visits, 0),
      status_breakdown: statusBreakdown,
      top_crawlers: topKeys(byCrawler, 3),
      last_crawled_at: lastCrawled ?? null,
    };
  });
}

export function botRows(model: TrafficModel, totals: RangeTotals, policy: AccessPolicy) {
  return CRAWLERS.map((c, ci) => {
    let lastDay: number | null = null;
    for (let d = model.today; d >= model.trackingStartDay; d--) {
      if (model.visits(d, c) > 0) {
        lastDay = d;
        break;
      }
    }
    return {
      id: c.id,
      name: c.name,
      platform: c.platform,
      intent: c.intent,
      bot_type: c.botType,
      visits: totals.byCrawler[ci]!,
      pages_crawled: totals.byPage.filter((row) => row[ci]! > 0).length,
      robots_txt: policy.robotsDisallow.includes(c.id) ? 'disallowed' : 'allowed',
      typical_status: policy.firewallBlocked.includes(c.id) ? 403 : 200,
      last_seen_at: lastDay === null ? null : new Date(lastDay * 86_400_000).toISOString().slice(0, 10),
    };
  });
}

export function pagesView(ctx: CrawlerContext) {
  const { model, input, profile, policy } = ctx;
  const lens = enumParam(input, 'lens', LENSES, 'pages');
  const status = enumParam(input, 'status', STATUS_FILTER, 'all');
  const sort = enumParam(input, 'sort', SORTS, 'visits');
  const range = parseDateRange(input, model.today);
  const filters = parseFilters(input);
  const totals = model.range(range.startDay, range.endDay);
  const include = (ci: number) => crawlerMatches(filters, CRAWLERS[ci]!);
  const search = filters.search;

  const rows = pageRows(model, totals, include).filter(
    (r) =>
      (status === 'all' || r.status === status) &&
      (!search || `${r.url} ${r.title}`.toLowerCase().includes(search)),
  );
  const order = <T extends { visits: number }>(items: T[], key: (t: T) => string, last: (t: T) => string) =>
    items.sort((a, b) =>
      sort === 'url'
        ? key(a) < key(b)
          ? -1
          : 1
        : sort === 'last_crawled'
          ? last(b).localeCompare(last(a)) || (key(a) < key(b) ? -1 : 1)
          : b.visits - a.visits || (key(a) < key(b) ? -1 : 1),
    );

  let items: unknown[];
  if (lens === 'pages') {
    items = order(
      rows,
      (r) => r.url,
      (r) => r.last_crawled_at ?? '',
    );
  } else if (lens === 'paths') {
    items = order(
      pathRows(rows),
      (r) => r.path,
      (r) => r.last_crawled_at ?? '',
    );
  } else {
    const bots = botRows(model, totals, policy).filter(
      (b) =>
        include(CRAWLERS.findIndex((c) => c.id === b.id)) &&
        (!search || b.name.toLowerCase().includes(search)),
    );
    items = order(
      bots,
      (b) => b.name,
      (b) => b.last_seen_at ?? '',
    );
  }
  const page = cursorPage(input, items);
  return {
    brand_id: profile.id,
    lens,
    status,
    sort,
    range: rangeJson(range),
    filters: filtersJson(filters),
    summary: {
      total_pages: model.pages.length,
      by_status: Object.fromEntries(
        PAGE_STATUSES.map((s) => [s, model.pages.filter((p) => p.status === s).length]),
      ),
    },
    items: page.items,
    meta: page.meta,
  };
}
