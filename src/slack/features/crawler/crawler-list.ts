/**
 * `crawler <brand> live|pages [range] [flags]`: the Live and Pages tabs, with the filters
 * docs/api.md §10 lists. Every flag is checked against its vocabulary before the request.
 */
import { crawlerIntents, pageStatuses } from '../../../api/schemas/index.js';
import type { CrawlerListQuery } from './crawler-tab-view.js';
import type { CrawlerViewArgs } from './crawler-view-args.js';
import { shown } from './crawler-view-args.js';
import { fetchCrawlerList } from './fetch-crawler-list.js';

const LIVE_VIEWS = ['activity', 'pages', 'sessions'] as const;
const LENSES = ['pages', 'paths', 'bots'] as const;
const PAGE_STATUSES = ['all', ...pageStatuses] as const;

function oneOf<T extends string>(
  a: CrawlerViewArgs,
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw a.fail(`\`--${flag}\` takes one of ${allowed.join(', ')} (got “${shown(value)}”).`);
  }
  return v as T;
}

function crawlerListQuery(a: CrawlerViewArgs, tab: 'live' | 'pages'): CrawlerListQuery {
  const f = a.flags;
  const intent = oneOf(a, 'intent', f.string('intent'), crawlerIntents);
  const platform = f.string('platform');
  const search = f.string('search', 'q');
  const limit = f.int(1, 100, 'limit');
  let view: CrawlerListQuery['view'];
  let lens: CrawlerListQuery['lens'];
  let status: string | undefined;
  if (tab === 'live') {
    view = oneOf(a, 'view', f.string('view'), LIVE_VIEWS);
    const http = f.string('status', 'http-status');
    // docs/api.md §10: the Live tab filters by `http_status`, a status code.
    if (http !== undefined && !/^[1-5]\d\d$/.test(http)) {
      throw a.fail(`\`--status\` on the live view takes an HTTP status such as 404 (got “${shown(http)}”).`);
    }
    status = http;
  } else {
    lens = oneOf(a, 'lens', f.string('lens'), LENSES);
    status = oneOf(a, 'status', f.string('status'), PAGE_STATUSES);
  }
  f.rejectUnknown();
  return { tab, range: a.range, view, lens, status, intent, platform, search, limit };
}

export async function runCrawlerList(a: CrawlerViewArgs, tab: 'live' | 'pages'): Promise<void> {
  if (a.operands.length > 0) throw a.fail(`\`${tab}\` takes no more words.`);
  // Undocumented: only a shared later message (fetch-crawler-list.ts) asks for these.
  const cursor = a.flags.string('cursor');
  const offset = a.flags.int(0, 1_000_000_000, 'offset');
  const skip = a.flags.int(0, 100, 'skip');
  const query = crawlerListQuery(a, tab);
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const page = { cursor, offset, skip };
  await a.ctx.respond(await fetchCrawlerList(a.ctx.deps, brand, query, page));
}
