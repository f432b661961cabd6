/**
 * Dashboard filters shared by the Live and Pages tabs (docs/api.md §10): `intent`, `platform`,
 * `http_status`, `search`.
 */
import { invalidParam } from '../http-error.js';
import { enumParam, type RequestInput, stringParam } from '../params.js';
import { CRAWLER_PLATFORMS, type CrawlerInfo } from './crawlers.js';

const INTENTS = ['all', 'interaction', 'search', 'training'] as const;

interface CrawlerFilters {
  intent: (typeof INTENTS)[number];
  platform: string;
  search: string | null;
  /** exact status, or a class such as 4 for "4xx"; null = any */
  httpStatus: { exact: number } | { klass: number } | null;
}

export function parseFilters(input: RequestInput): CrawlerFilters {
  const intent = enumParam(input, 'intent', INTENTS, 'all');
  const platform = (stringParam(input, 'platform') ?? 'all').toLowerCase();
  if (platform !== 'all' && !CRAWLER_PLATFORMS.includes(platform)) {
    throw invalidParam('platform', `must be all or one of ${CRAWLER_PLATFORMS.join(', ')}`);
  }
  const search = stringParam(input, 'search')?.trim().toLowerCase() || null;
  const status = stringParam(input, 'http_status')?.trim().toLowerCase();
  let httpStatus: CrawlerFilters['httpStatus'] = null;
  if (status !== undefined && status !== 'all') {
    if (/^[1-5]xx$/.test(status)) httpStatus = { klass: Number(status[0]) };
    else if (/^\d{3}$/.test(status) && Number(status) >= 100 && Number(status) <= 599) {
      httpStatus = { exact: Number(status) };
    } else throw invalidParam('http_status', 'must be an HTTP status (100-599) or a class such as 4xx');
  }
  return { intent, platform, search, httpStatus };
}

export function crawlerMatches(filters: CrawlerFilters, crawler: CrawlerInfo): boolean {
  return (
    (filters.intent === 'all' || crawler.intent === filters.intent) &&
    (filters.platform === 'all' || crawler.platform === filters.platform)
  );
}

export function statusMatches(filters: CrawlerFilters, status: number): boolean {
  const f = filters.httpStatus;
  if (f === null) return true;
  return 'exact' in f ? status === f.exact : Math.floor(status / 100) === f.klass;
}

export function filtersJson(filters: CrawlerFilters) {
  const s = filters.httpStatus;
  return {
    intent: filters.intent,
    platform: filters.platform,
    http_status: s === null ? null : 'exact' in s ? String(s.exact) : `${s.klass}xx`,
    search: filters.search,
  };
}
