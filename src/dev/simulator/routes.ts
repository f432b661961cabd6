/**
 * Every endpoint the simulator serves, with its per-endpoint limit from docs/api.md §8. The
 * simulator keeps its own table (rather than the client's) so that a mistake in one is
 * caught by tests against the other. Brand writes share one 30/min window.
 */
import { getAiPages } from './handlers/ai-pages-handlers.js';
import { addMarket, getBrands, removeMarket, setAliases, setLocation } from './handlers/brand-handlers.js';
import { getCitations } from './handlers/citation-handlers.js';
import { getContentIdeas, refreshContentIdeas } from './handlers/content-ideas-handlers.js';
import {
  getCrawlerAccess,
  getCrawlerBotDetails,
  getCrawlerLive,
  getCrawlerOverview,
  getCrawlerPageDetails,
  getCrawlerPages,
  getCrawlerPathDetails,
  getSubmitToSearchStatus,
  previewAccessFix,
  submitToSearch,
  verificationPing,
} from './handlers/crawler-handlers.js';
import type { Handler } from './handlers/handler-context.js';

interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly perMinute: number;
  /** endpoints sharing one window */
  readonly group?: string;
  readonly handle: Handler;
}

const BRAND_WRITES = 'brand-writes';

const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/get-content-ideas', perMinute: 60, handle: getContentIdeas },
  { method: 'POST', path: '/get-content-ideas', perMinute: 10, handle: refreshContentIdeas },
  { method: 'GET', path: '/get-brands', perMinute: 60, handle: getBrands },
  { method: 'POST', path: '/get-brands/markets', perMinute: 30, group: BRAND_WRITES, handle: addMarket },
  { method: 'DELETE', path: '/get-brands/markets', perMinute: 30, group: BRAND_WRITES, handle: removeMarket },
  { method: 'PUT', path: '/get-brands/location', perMinute: 30, group: BRAND_WRITES, handle: setLocation },
  { method: 'PUT', path: '/get-brands/aliases', perMinute: 30, group: BRAND_WRITES, handle: setAliases },
  { method: 'GET', path: '/get-citations', perMinute: 60, handle: getCitations },
  { method: 'GET', path: '/crawler/overview', perMinute: 60, handle: getCrawlerOverview },
  // Legacy compatibility route (docs/api.md §4.10, §9): answers like the overview.
  { method: 'GET', path: '/get-crawler', perMinute: 60, handle: getCrawlerOverview },
  { method: 'GET', path: '/crawler/live', perMinute: 60, handle: getCrawlerLive },
  { method: 'GET', path: '/crawler/pages', perMinute: 60, handle: getCrawlerPages },
  // docs/api.md §8 lists no limit for the drawers; they are reads like the rest, 60/min.
  { method: 'GET', path: '/crawler/page-details', perMinute: 60, handle: getCrawlerPageDetails },
  { method: 'GET', path: '/crawler/path-details', perMinute: 60, handle: getCrawlerPathDetails },
  { method: 'GET', path: '/crawler/bot-details', perMinute: 60, handle: getCrawlerBotDetails },
  { method: 'GET', path: '/crawler/access', perMinute: 60, handle: getCrawlerAccess },
  { method: 'POST', path: '/crawler/access/preview-fix', perMinute: 30, handle: previewAccessFix },
  { method: 'POST', path: '/crawler/verification-ping', perMinute: 30, handle: verificationPing },
  { method: 'POST', path: '/crawler/submit-to-search', perMinute: 30, handle: submitToSearch },
  { method: 'GET', path: '/crawler/submit-to-search/status', perMinute: 60, handle: getSubmitToSearchStatus },
  { method: 'GET', path: '/ai-pages', perMinute: 60, handle: getAiPages },
  { method: 'GET', path: '/prism', perMinute: 60, handle: getAiPages },
];

type RouteMatch = { route: Route } | { methodNotAllowed: true } | null;

export function matchRoute(method: string, path: string): RouteMatch {
  const onPath = ROUTES.filter((r) => r.path === path);
  if (onPath.length === 0) return null;
  const route = onPath.find((r) => r.method === method);
  return route ? { route } : { methodNotAllowed: true };
}
