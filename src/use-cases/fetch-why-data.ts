/**
 * The data behind the "why it changed" lines and the crawler-fall cause (src/alerts/why-lines.ts,
 * blocked-crawler-alert.ts), fetched for the alerts of one run and never more than the run's
 * bound allows (plan-polling.ts: WHY_CALLS_PER_CITATIONS_RUN, WHY_CALLS_PER_CRAWLER_RUN, counted
 * in the polling plan). Once the bound is spent, later alerts go out without a why-line rather
 * than spending calls the plan did not count. A failed call also gives no line: the alert still
 * goes out, saying nothing about why. The crawler payloads are undocumented (docs/api.md §10), so
 * they are read field by field and anything unexpected is skipped.
 */
import type { AccessFinding } from '../alerts/blocked-crawler-alert.js';
import type { CrawlerPeriods } from '../alerts/detect-crawler.js';
import type { DomainSources, PageVisitCounts, PageVisits } from '../alerts/why-lines.js';
import { isApiError } from '../api/errors.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import type { Logger } from '../logger.js';

/** Calls a run may still spend on why-lines; shared by every brand of the run. */
export class CallBudget {
  #left: number;
  constructor(size: number) {
    this.#left = size;
  }
  /** True (and one call spent) when a call is still allowed. */
  take(): boolean {
    if (this.#left <= 0) return false;
    this.#left -= 1;
    return true;
  }
  get left(): number {
    return this.#left;
  }
}

const budgets = new WeakMap<object, Map<string, CallBudget>>();

/** The budget of `name` for one run (`run` is any object that lives exactly as long as the run). */
export function runBudget(run: object, name: string, size: number): CallBudget {
  let byName = budgets.get(run);
  if (!byName) {
    byName = new Map();
    budgets.set(run, byName);
  }
  let b = byName.get(name);
  if (!b) {
    b = new CallBudget(size);
    byName.set(name, b);
  }
  return b;
}

export interface WhyFetch {
  api: Pick<
    VisibilityApi,
    'getBrands' | 'getCrawlerLive' | 'getCitationSources' | 'getCrawlerAccess' | 'getCrawlerPages'
  >;
  call: CallOptions;
  budget: CallBudget;
  logger?: Pick<Logger, 'info'> | undefined;
}

/** The call's answer, or null when the service refused it (an API error): no line then. */
async function attempt<T>(w: WhyFetch, what: string, fn: () => Promise<T>): Promise<T | null> {
  if (!w.budget.take()) return null;
  try {
    return await fn();
  } catch (err) {
    if (!isApiError(err)) throw err;
    w.logger?.info({ what, code: err.code }, 'why-line data not available');
    return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const items = (payload: unknown): unknown[] =>
  isRecord(payload) && Array.isArray(payload['items']) ? payload['items'] : [];

/** The host of a URL without `www.`; null when it is not a URL. */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`).hostname
      .toLowerCase()
      .replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Whether `url` is on the brand's own site (its host or a subdomain of it). */
export function isOwnPage(url: string, siteHost: string): boolean {
  const h = hostOf(url);
  return h !== null && (h === siteHost || h.endsWith(`.${siteHost}`));
}

/** The brand's website host, from the brand list (one call). */
export async function fetchSiteHost(w: WhyFetch, brandId: string): Promise<string | null> {
  const r = await attempt(w, 'brand', () => w.api.getBrands({ brandId }, w.call));
  const brand = r?.brands.find((b) => b.id === brandId) ?? r?.brands[0];
  return hostOf(brand?.website ?? null);
}

/** Days of crawler activity a lost own page is checked over. */
const PAGE_VISIT_DAYS = 7;

/** AI crawler visits to one page over the last PAGE_VISIT_DAYS days (the Live tab's activity). */
export async function fetchPageVisits(w: WhyFetch, brandId: string, url: string): Promise<PageVisits | null> {
  const r = await attempt(w, 'page visits', () =>
    w.api.getCrawlerLive({ brandId, view: 'activity', rangePreset: '7d', search: url, limit: 100 }, w.call),
  );
  if (r === null) return null;
  const visits = items(r).flatMap((it) => {
    if (!isRecord(it) || str(it['url']) !== url) return [];
    const at = Date.parse(str(it['visited_at']) ?? '');
    if (Number.isNaN(at)) return [];
    return [{ crawler: str(it['crawler']), visitedAtMs: at, statusCode: num(it['status_code']) }];
  });
  return { days: PAGE_VISIT_DAYS, visits };
}

/** The sources view of a domain (competitors on it, its pages). */
export async function fetchDomainSources(
  w: WhyFetch,
  brandId: string,
  domain: string,
): Promise<DomainSources | null> {
  const r = await attempt(w, 'sources', () => w.api.getCitationSources({ brandId, domain }, w.call));
  if (r === null) return null;
  const names = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const raw = r as unknown as Record<string, unknown>;
  const pages = Array.isArray(raw['pages']) ? raw['pages'] : [];
  return {
    domain,
    competitorsOnDomain: names(raw['competitors_on_domain']),
    pages: pages.flatMap((p) => {
      const url = isRecord(p) ? str(p['url']) : null;
      return url && isRecord(p) ? [{ url, competitors: names(p['competitors']) }] : [];
    }),
  };
}

/**
 * Whether a finding is about a crawler being kept out (robots.txt, a firewall), not advice
 * such as a missing llms.txt that also lists bots: by its category when it has one, else by
 * its title's words.
 */
function blocks(f: Record<string, unknown>): boolean {
  const category = str(f['category']);
  if (category !== null) return category === 'robots' || category === 'firewall';
  return /block|disallow|denied|forbidden|\b403\b/i.test(str(f['title']) ?? '');
}

/** The access check's findings that keep crawlers out (title, the bots they block, what to do). */
export async function fetchAccessFindings(w: WhyFetch, brandId: string): Promise<AccessFinding[] | null> {
  const r = await attempt(w, 'access', () => w.api.getCrawlerAccess({ brandId, rangePreset: '7d' }, w.call));
  if (r === null || !isRecord(r) || !Array.isArray(r['findings'])) return null;
  return r['findings'].flatMap((f) => {
    if (!isRecord(f) || !blocks(f)) return [];
    const title = str(f['title']);
    const bots = Array.isArray(f['affected_bots'])
      ? f['affected_bots'].filter((b) => typeof b === 'string')
      : [];
    return title ? [{ title, affectedBots: bots as string[], recommendation: str(f['recommendation']) }] : [];
  });
}

/** Pages read per period for a crawler fall's page line (one call each). */
const FALL_PAGES_LIMIT = 100;

async function pageVisitsIn(w: WhyFetch, brandId: string, start: string, end: string) {
  const r = await attempt(w, 'pages', () =>
    w.api.getCrawlerPages(
      {
        brandId,
        lens: 'pages',
        rangePreset: 'custom',
        startDate: start,
        endDate: end,
        limit: FALL_PAGES_LIMIT,
      },
      w.call,
    ),
  );
  if (r === null) return null;
  const counts = new Map<string, number>();
  for (const it of items(r)) {
    const url = isRecord(it) ? str(it['url']) : null;
    const visits = isRecord(it) ? num(it['visits']) : null;
    if (url && visits !== null) counts.set(url, visits);
  }
  const meta = isRecord(r) && isRecord(r['meta']) ? r['meta'] : {};
  return { counts, complete: meta['next_cursor'] == null };
}

/**
 * Visits per page in both periods of a crawler fall. A page in the earlier period's list
 * but not the later one counts as 0 only when the later list is complete; otherwise it is
 * left out (it may sit on a page not read).
 */
export async function fetchPageFalls(
  w: WhyFetch,
  brandId: string,
  periods: CrawlerPeriods,
): Promise<PageVisitCounts[] | null> {
  const previous = await pageVisitsIn(w, brandId, periods.previous.start, periods.previous.end);
  if (previous === null) return null;
  const current = await pageVisitsIn(w, brandId, periods.current.start, periods.current.end);
  if (current === null) return null;
  return [...previous.counts].flatMap(([url, before]) => {
    const now = current.counts.get(url) ?? (current.complete ? 0 : null);
    return now === null ? [] : [{ url, previous: before, current: now }];
  });
}
