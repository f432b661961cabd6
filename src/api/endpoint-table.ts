/**
 * Every endpoint the client calls, with its per-endpoint limit from docs/api.md §8.
 * Brand writes (POST/PUT/DELETE on brand resources) are limited to 30/min.
 * `idempotent` decides whether transport errors and 5xx may be retried blindly.
 * Endpoints docs/api.md §8 gives no limit for (the crawler drawers, /ai-pages) are paced
 * at the 60/min that every other read has, which the key bucket also bounds.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointSpec {
  readonly method: HttpMethod;
  readonly path: string;
  readonly perMinute: number;
  readonly idempotent: boolean;
  /** Endpoints that share one per-minute window (docs/api.md §8: brand writes, 30/min together). */
  readonly group?: string;
}

export const ENDPOINTS = {
  getContentIdeas: { method: 'GET', path: '/get-content-ideas', perMinute: 60, idempotent: true },
  refreshContentIdeas: { method: 'POST', path: '/get-content-ideas', perMinute: 10, idempotent: false },
  getBrands: { method: 'GET', path: '/get-brands', perMinute: 60, idempotent: true },
  addMarket: {
    method: 'POST',
    path: '/get-brands/markets',
    perMinute: 30,
    idempotent: false,
    group: 'brand-writes',
  },
  removeMarket: {
    method: 'DELETE',
    path: '/get-brands/markets',
    perMinute: 30,
    idempotent: false,
    group: 'brand-writes',
  },
  setLocation: {
    method: 'PUT',
    path: '/get-brands/location',
    perMinute: 30,
    idempotent: false,
    group: 'brand-writes',
  },
  setAliases: {
    method: 'PUT',
    path: '/get-brands/aliases',
    perMinute: 30,
    idempotent: false,
    group: 'brand-writes',
  },
  getCitations: { method: 'GET', path: '/get-citations', perMinute: 60, idempotent: true },
  getCrawlerOverview: { method: 'GET', path: '/crawler/overview', perMinute: 60, idempotent: true },
  getCrawlerLive: { method: 'GET', path: '/crawler/live', perMinute: 60, idempotent: true },
  getCrawlerPages: { method: 'GET', path: '/crawler/pages', perMinute: 60, idempotent: true },
  getCrawlerPageDetails: { method: 'GET', path: '/crawler/page-details', perMinute: 60, idempotent: true },
  getCrawlerPathDetails: { method: 'GET', path: '/crawler/path-details', perMinute: 60, idempotent: true },
  getCrawlerBotDetails: { method: 'GET', path: '/crawler/bot-details', perMinute: 60, idempotent: true },
  getCrawlerAccess: { method: 'GET', path: '/crawler/access', perMinute: 60, idempotent: true },
  previewAccessFix: { method: 'POST', path: '/crawler/access/preview-fix', perMinute: 30, idempotent: false },
  verificationPing: { method: 'POST', path: '/crawler/verification-ping', perMinute: 30, idempotent: false },
  submitToSearch: { method: 'POST', path: '/crawler/submit-to-search', perMinute: 30, idempotent: false },
  getSubmitToSearchStatus: {
    method: 'GET',
    path: '/crawler/submit-to-search/status',
    perMinute: 60,
    idempotent: true,
  },
  getAiPages: { method: 'GET', path: '/ai-pages', perMinute: 60, idempotent: true },
  /** Legacy alias of /ai-pages (docs/api.md §9), used only when /ai-pages answers 404. */
  getPrism: { method: 'GET', path: '/prism', perMinute: 60, idempotent: true },
} as const satisfies Record<string, EndpointSpec>;

export type EndpointKey = keyof typeof ENDPOINTS;
export const endpointKeys = Object.keys(ENDPOINTS) as EndpointKey[];
