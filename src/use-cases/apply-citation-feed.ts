/**
 * A citation feed applied to a brand's per-URL state (docs/alert-semantics.md): by the
 * citations job on every run, and by `subscribe` when it records a new subscription's
 * baseline.
 *
 * The state is per brand because its transitions do not depend on settings; which changes
 * alert does (`events`, `sentiment-drop`), so each channel gets the detector's answer for
 * its own settings over the same state.
 */
import { DEFAULT_ALERT_SETTINGS } from '../alerts/alert-settings.js';
import { baselineCitations, type CitationDetection, detectCitations } from '../alerts/detect-citations.js';
import type { Alert } from '../alerts/types.js';
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { CitationStateRepo } from '../store/citation-state-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { type AlertSink, addCounts, type EnqueueCounts, enqueueAlerts, noCounts } from './enqueue-alerts.js';

export interface CitationStores {
  citationState: CitationStateRepo;
  sink: AlertSink;
}

/**
 * What the job adds to a subscription's alerts before they are written: why-lines, the
 * brand's AI model alerts, and folding under a cause (citations-job.ts). Default: none.
 */
export type FinishAlerts = (sub: Subscription, alerts: readonly Alert[]) => Alert[];

/**
 * A fresh feed against the brand's stored state: alerts for every subscription, the new
 * state. Call it inside a transaction: the state is read there, so two runs (or a run and
 * a subscribe) can never both act on the same old state.
 */
export async function applyCitationFeed(
  stores: CitationStores,
  brandId: string,
  feed: CitationFeedResponse,
  subs: readonly Subscription[],
  nowMs: number,
  finish?: FinishAlerts,
): Promise<EnqueueCounts> {
  const prev = await stores.citationState.load(brandId);
  const counts = noCounts();
  const bySettings = new Map<string, CitationDetection>();
  let first: CitationDetection | undefined;
  for (const sub of subs) {
    const key = JSON.stringify([sub.settings.events, sub.settings.sentimentDrop]);
    let d = bySettings.get(key);
    if (!d) {
      d = detectCitations(prev, feed, sub.settings, nowMs);
      bySettings.set(key, d);
    }
    first ??= d;
    const alerts = finish ? finish(sub, d.alerts) : d.alerts;
    addCounts(counts, await enqueueAlerts(stores.sink, sub, alerts, [], nowMs));
  }
  // Every detection moves the state the same way; only the alerts differ by settings.
  const next = first ?? detectCitations(prev, feed, DEFAULT_ALERT_SETTINGS, nowMs);
  await stores.citationState.save(brandId, next.next, nowMs, next.changed);
  return counts;
}

/**
 * Subscribe time (docs/alert-semantics.md: events are baselined silently when the subscription is
 * created). When other channels already watch the brand, the feed is first applied for
 * them, so a change they have not heard of yet is alerted to them and not swallowed by the
 * newcomer's baseline; otherwise the brand's state is replaced by the baseline.
 */
export async function baselineCitationsForSubscription(
  stores: CitationStores,
  brandId: string,
  feed: CitationFeedResponse,
  watching: readonly Subscription[],
  nowMs: number,
): Promise<EnqueueCounts> {
  if (watching.length > 0) return applyCitationFeed(stores, brandId, feed, watching, nowMs);
  await stores.citationState.replace(brandId, baselineCitations(feed, new Map(), nowMs), nowMs);
  return noCounts();
}
