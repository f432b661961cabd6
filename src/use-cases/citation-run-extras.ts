/**
 * What a citations run adds to the feed's alerts (src/jobs/citations-job.ts):
 * - for brands a subscription has `model-alerts=on` for: the citation list, counted per AI
 *   model per day, and "model stopped citing" / "cites again" alerts (detect-model-citations.ts),
 *   the state saved in the run's transaction so a state change and its outbox row are stored
 *   together;
 * - why-lines for lost citations, fetched before the transaction within the run's bound
 *   (fetch-why-data.ts), keyed by URL;
 * - folding: a lost page a stopped model cited goes under that model's alert.
 */

import { detectCitations } from '../alerts/detect-citations.js';
import {
  detectModelCitations,
  type ListedCitation,
  modelsOfUrl,
  recordList,
} from '../alerts/detect-model-citations.js';
import { explainedByModel, foldAlerts } from '../alerts/fold-alerts.js';
import type { Alert, BrandRef } from '../alerts/types.js';
import { ownPageWhy, thirdPartyWhy } from '../alerts/why-lines.js';
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import type { CitationStateRepo } from '../store/citation-state-repo.js';
import type { ModelCitationStateRepo } from '../store/model-citation-state-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import type { FinishAlerts } from './apply-citation-feed.js';
import {
  fetchDomainSources,
  fetchPageVisits,
  fetchSiteHost,
  hostOf,
  isOwnPage,
  type WhyFetch,
} from './fetch-why-data.js';

/** Citation list pages read per brand (500 citations each); a longer list is marked incomplete. */
const MODEL_LIST_MAX_PAGES = 2;
const LIST_LIMIT = 500;

interface ModelList {
  citations: ListedCitation[];
  /** False when the list had more pages than were read. */
  complete: boolean;
}

/** Whether any of `subs` wants AI model alerts (then the list is read). */
export const wantsModelAlerts = (subs: readonly Subscription[]): boolean =>
  subs.some((s) => s.settings.modelAlerts);

/** The brand's citation list, up to MODEL_LIST_MAX_PAGES pages. */
export async function fetchModelList(
  api: Pick<VisibilityApi, 'getCitationList'>,
  brandId: string,
  opts: CallOptions,
): Promise<ModelList> {
  const citations: ListedCitation[] = [];
  for (let page = 0; page < MODEL_LIST_MAX_PAGES; page++) {
    const r = await api.getCitationList({ brandId, limit: LIST_LIMIT, offset: citations.length }, opts);
    citations.push(...r.citations);
    if (!r.pagination.has_more || r.citations.length === 0) return { citations, complete: true };
  }
  return { citations, complete: false };
}

/**
 * Why-lines for the pages this feed will report lost (the same detection the transaction
 * repeats, on the state as it is now), by URL. Own pages: do crawlers still reach them;
 * other sites: the competitors there. Calls stop when `w.budget` is spent.
 */
export async function fetchLostPageWhy(
  w: WhyFetch,
  brandId: string,
  citationState: Pick<CitationStateRepo, 'load'>,
  feed: CitationFeedResponse,
  subs: readonly Subscription[],
  nowMs: number,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const sub = subs.find((s) => s.settings.events.includes('lost'));
  // Once the run's calls are spent no line can be fetched: the state is not read and the
  // feed not detected twice for nothing (the transaction does both again).
  if (!sub || w.budget.left === 0) return out;
  const prev = await citationState.load(brandId);
  const urls = detectCitations(prev, feed, sub.settings, nowMs)
    .alerts.filter((a) => a.kind === 'citation_lost')
    .map((a) => a.open.params?.url)
    .filter((u): u is string => typeof u === 'string');
  if (urls.length === 0) return out;
  const site = await fetchSiteHost(w, brandId);
  // Without the brand's own site, a page cannot be told own or third-party: no line.
  if (site === null) return out;
  const sources = new Map<string, Awaited<ReturnType<typeof fetchDomainSources>>>();
  for (const url of [...new Set(urls)]) {
    if (w.budget.left === 0) break;
    if (isOwnPage(url, site)) {
      out.set(url, ownPageWhy(await fetchPageVisits(w, brandId, url)));
      continue;
    }
    const domain = hostOf(url);
    if (domain === null) continue;
    if (!sources.has(domain)) sources.set(domain, await fetchDomainSources(w, brandId, domain));
    out.set(url, thirdPartyWhy(url, sources.get(domain) ?? null));
  }
  return out;
}

interface ModelRunResult {
  alerts: Alert[];
  modelsOfUrl: (url: string) => readonly string[];
}

/**
 * The list folded into the brand's model state, alerts for what changed, the state saved.
 * Call it inside the run's transaction. `silent`: record only (the brand's first run).
 */
export async function applyModelList(
  repo: ModelCitationStateRepo,
  brand: BrandRef,
  list: ModelList,
  nowMs: number,
  silent = false,
): Promise<ModelRunResult> {
  const recorded = recordList(await repo.load(brand.id), list.citations, list.complete);
  const d = silent ? { alerts: [], next: recorded } : detectModelCitations(recorded, brand, nowMs);
  await repo.save(brand.id, d.next, nowMs);
  return { alerts: d.alerts, modelsOfUrl: (url) => modelsOfUrl(d.next, url) };
}

/** The job's FinishAlerts: why-lines on lost pages, the model alerts for subscriptions that want them, folded. */
export function finishCitationAlerts(
  why: ReadonlyMap<string, string[]>,
  model: ModelRunResult | null,
): FinishAlerts {
  return (sub, alerts) => {
    const withWhy = alerts.map((a) => {
      const lines = a.kind === 'citation_lost' ? why.get(a.open.params?.url ?? '') : undefined;
      return lines && lines.length > 0 ? { ...a, why: lines } : a;
    });
    if (model === null || !sub.settings.modelAlerts) return withWhy;
    return foldAlerts([...withWhy, ...model.alerts], explainedByModel(model.modelsOfUrl));
  };
}
