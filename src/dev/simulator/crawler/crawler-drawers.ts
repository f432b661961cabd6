/**
 * The Pages tab's drawers: page-details, path-details and bot-details (docs/api.md §10: `kind`
 * and `entity_id`). An unknown entity is a 404; a `kind` that does not fit the drawer, 400.
 */
import { counted } from '../../../figures/plural.js';
import { dateOfDay } from '../../../utc-days.js';
import { detailShape, invalidParam } from '../http-error.js';
import { requiredString, stringParam } from '../params.js';
import type { CrawlerContext } from './crawler-overview.js';
import { botRows, pageRows, pathRows } from './crawler-pages.js';
import { CRAWLERS, findCrawler } from './crawlers.js';
import { parseDateRange, rangeJson } from './date-range.js';
import { type PageStatus, STATUS_RANK } from './traffic-model.js';

type DrawerKind = 'page' | 'path' | 'bot';

const PIPELINE_STAGES: readonly PageStatus[] = ['crawled', 'healthy', 'cited', 'converting'];

const VERDICTS: Record<PageStatus, { headline: string; detail: string }> = {
  converting: {
    headline: 'Cited and converting',
    detail: 'AI answers cite this page and send visitors who convert.',
  },
  cited: {
    headline: 'Cited in AI answers',
    detail: 'AI search engines cite this page; conversions are not tracked yet.',
  },
  healthy: {
    headline: 'Crawled and healthy',
    detail: 'Crawlers fetch this page without errors but no AI answer cites it yet.',
  },
  crawled: {
    headline: 'Crawled only',
    detail: 'Crawlers reach this page, mostly for training; it is not surfacing in answers.',
  },
  cold: { headline: 'Cold', detail: 'No AI crawler has visited this page in over a month.' },
};

function drawerInput(ctx: CrawlerContext, kind: DrawerKind) {
  const given = stringParam(ctx.input, 'kind');
  if (given !== undefined && given !== kind) throw invalidParam('kind', `must be ${kind} for this drawer`);
  const entityId = requiredString(ctx.input, 'entity_id');
  const range = parseDateRange(ctx.input, ctx.model.today);
  const totals = ctx.model.range(range.startDay, range.endDay);
  return { entityId, range, totals };
}

const notFound = (kind: DrawerKind, id: string) =>
  detailShape(404, { code: 'not_found', message: `No ${kind} '${id}' for this brand` });

function pipelineOf(status: PageStatus) {
  return PIPELINE_STAGES.map((stage) => ({ stage, reached: STATUS_RANK[status] >= STATUS_RANK[stage] }));
}

const topEntries = (counts: Record<string, number>, n: number) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([name, visits]) => ({ name, visits }));

export function pageDetailsView(ctx: CrawlerContext) {
  const { entityId, range, totals } = drawerInput(ctx, 'page');
  const rows = pageRows(ctx.model, totals);
  const index = rows.findIndex((r) => r.id === entityId || r.url === entityId || r.path === entityId);
  if (index < 0) throw notFound('page', entityId);
  const row = rows[index]!;
  const page = ctx.model.pages[index]!;
  // The page's own visits each day: they add up to its total.
  const series = totals.days.map((day, di) => ({
    date: dateOfDay(day),
    count: totals.byDayPage[di]![index]!,
  }));
  const blocked = CRAWLERS.filter((c) => ctx.policy.firewallBlocked.includes(c.id)).map((c) => c.name);
  const diagnostics = [
    ...(row.status === 'cold'
      ? [
          {
            severity: 'warning',
            code: 'not_recrawled',
            message: 'Not crawled in 35+ days; add it to the sitemap or submit it to search.',
          },
        ]
      : []),
    ...blocked.map((name) => ({
      severity: 'error',
      code: 'blocked_by_firewall',
      message: `${name} receives 403 on this page.`,
    })),
    ...(page.path.startsWith('/docs') && !ctx.policy.hasLlmsTxt
      ? [
          {
            severity: 'info',
            code: 'missing_llms_txt',
            message: 'Documentation pages are not listed in an llms.txt file.',
          },
        ]
      : []),
  ];
  return {
    brand_id: ctx.profile.id,
    kind: 'page',
    entity_id: row.id,
    range: rangeJson(range),
    page: { id: row.id, url: row.url, path: row.path, title: row.title, status: row.status },
    verdict: { status: row.status, ...VERDICTS[row.status] },
    pipeline: pipelineOf(row.status),
    health: {
      http_status: blocked.length === CRAWLERS.length ? 403 : 200,
      error_rate_pct: blocked.length > 0 ? 8.4 : 2.1,
      avg_response_ms: 120 + (row.path.length % 7) * 23,
      robots_txt: 'allowed',
      last_crawled_at: row.last_crawled_at,
    },
    traffic: { total_visits: row.visits, series, by_crawler: topEntries(row.by_crawler, CRAWLERS.length) },
    diagnostics,
  };
}

export function pathDetailsView(ctx: CrawlerContext) {
  const { entityId, range, totals } = drawerInput(ctx, 'path');
  const rows = pageRows(ctx.model, totals);
  const path = pathRows(rows).find((p) => p.id === entityId || p.path === entityId);
  if (!path) throw notFound('path', entityId);
  const inPath = rows.filter((r) => r.section === path.path);
  const byCrawler: Record<string, number> = {};
  for (const r of inPath)
    for (const [k, n] of Object.entries(r.by_crawler)) byCrawler[k] = (byCrawler[k] ?? 0) + n;
  const cold = inPath.filter((r) => r.status === 'cold').length;
  const best = inPath.reduce((a, b) => (STATUS_RANK[a.status] >= STATUS_RANK[b.status] ? a : b));
  return {
    brand_id: ctx.profile.id,
    kind: 'path',
    entity_id: path.id,
    range: rangeJson(range),
    path: path.path,
    verdict: {
      status: best.status,
      headline:
        cold === inPath.length
          ? 'Cold section'
          : `${counted(path.pages, 'page')}, ${counted(path.visits, 'visit')}`,
      detail:
        cold > 0
          ? `${counted(cold, 'page')} in this section ${cold === 1 ? 'has' : 'have'} gone cold.`
          : 'Every page in this section is being crawled.',
    },
    pipeline: PIPELINE_STAGES.map((stage) => ({
      stage,
      pages: inPath.filter((r) => STATUS_RANK[r.status] >= STATUS_RANK[stage]).length,
    })),
    top_pages: [...inPath]
      .sort((a, b) => b.visits - a.visits || (a.url < b.url ? -1 : 1))
      .slice(0, 5)
      .map((r) => ({ id: r.id, url: r.url, visits: r.visits, status: r.status })),
    top_bots: topEntries(byCrawler, 5),
    diagnostics:
      cold > 0
        ? [
            {
              severity: 'warning',
              code: 'cold_pages',
              message: `${counted(cold, 'page')} not crawled in 35+ days.`,
            },
          ]
        : [],
  };
}

export function botDetailsView(ctx: CrawlerContext) {
  const { entityId, range, totals } = drawerInput(ctx, 'bot');
  const crawler = findCrawler(entityId);
  if (!crawler) throw notFound('bot', entityId);
  const ci = CRAWLERS.indexOf(crawler);
  const bot = botRows(ctx.model, totals, ctx.policy)[ci]!;
  const rows = pageRows(ctx.model, totals, (i) => i === ci);
  const disallowed = ctx.policy.robotsDisallow.includes(crawler.id);
  const firewalled = ctx.policy.firewallBlocked.includes(crawler.id);
  const sections: Record<string, number> = {};
  for (const r of rows) if (r.visits > 0) sections[r.section] = (sections[r.section] ?? 0) + r.visits;
  return {
    brand_id: ctx.profile.id,
    kind: 'bot',
    entity_id: crawler.id,
    range: rangeJson(range),
    bot: {
      id: crawler.id,
      name: crawler.name,
      platform: crawler.platform,
      intent: crawler.intent,
      bot_type: crawler.botType,
      user_agent: crawler.userAgent,
    },
    verdict: disallowed
      ? {
          status: 'blocked',
          headline: 'Blocked by robots.txt',
          detail: `${crawler.name} only fetches robots.txt.`,
        }
      : firewalled
        ? {
            status: 'blocked',
            headline: 'Blocked by the firewall',
            detail: `${crawler.name} is allowed by robots.txt but receives 403.`,
          }
        : {
            status: 'active',
            headline: 'Crawling normally',
            detail: `${counted(bot.visits, 'visit')} in the selected range.`,
          },
    pipeline: [
      { stage: 'robots_allowed', reached: !disallowed },
      { stage: 'reachable', reached: !firewalled },
      { stage: 'crawling', reached: bot.visits > 0 },
      { stage: 'answering', reached: crawler.intent !== 'training' && !disallowed && !firewalled },
    ],
    traffic: { total_visits: bot.visits, pages_crawled: bot.pages_crawled, last_seen_at: bot.last_seen_at },
    top_pages: rows
      .filter((r) => r.visits > 0)
      .sort((a, b) => b.visits - a.visits || (a.url < b.url ? -1 : 1))
      .slice(0, 5)
      .map((r) => ({ id: r.id, url: r.url, visits: r.visits })),
    top_paths: topEntries(sections, 5).map((e) => ({ path: e.name, visits: e.visits })),
    diagnostics: [
      ...(disallowed
        ? [{ severity: 'warning', code: 'robots_disallow', message: `robots.txt disallows ${crawler.name}.` }]
        : []),
      ...(firewalled
        ? [
            {
              severity: 'error',
              code: 'firewall_403',
              message: `${crawler.name} receives 403 from the site.`,
            },
          ]
        : []),
    ],
  };
}
