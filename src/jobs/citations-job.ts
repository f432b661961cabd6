/**
 * Citations: one feed request per brand, covering the time since that brand's last
 * successful run, applied to the brand's per-URL state (DESIGN.md "Alert semantics").
 *
 * The state is per brand because its transitions do not depend on settings; which changes
 * alert does (`events`, `sentiment-drop`), so each channel gets the detector's answer for
 * its own settings over the same state.
 */
import { DEFAULT_ALERT_SETTINGS } from '../alerts/alert-settings.js';
import { baselineCitations, type CitationDetection, detectCitations } from '../alerts/detect-citations.js';
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { CitationStateRepo } from '../store/citation-state-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { transaction } from '../store/transaction.js';
import { daysBackSince, MAX_DAYS_BACK } from './days-back.js';
import { type AlertSink, addCounts, type EnqueueCounts, enqueueAlerts, noCounts } from './enqueue-alerts.js';
import { fetchCitationFeed } from './fetch-citation-feed.js';
import type { JobDefinition } from './job-definition.js';

export interface CitationStores {
  citationState: CitationStateRepo;
  sink: AlertSink;
}

/**
 * A fresh feed against the brand's stored state: alerts for every subscription, the new
 * state. Call it inside a transaction: the state is read there, so two runs (or a run and
 * a subscribe) can never both act on the same old state.
 */
export function applyCitationFeed(
  stores: CitationStores,
  brandId: string,
  feed: CitationFeedResponse,
  subs: readonly Subscription[],
  nowMs: number,
): EnqueueCounts {
  const prev = stores.citationState.load(brandId);
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
    addCounts(counts, enqueueAlerts(stores.sink, sub, d.alerts, [], nowMs));
  }
  // Every detection moves the state the same way; only the alerts differ by settings.
  const next = first ?? detectCitations(prev, feed, DEFAULT_ALERT_SETTINGS, nowMs);
  stores.citationState.save(brandId, next.next, nowMs, next.changed);
  return counts;
}

/**
 * Subscribe time (DESIGN.md: events are baselined silently when the subscription is
 * created). When other channels already watch the brand, the feed is first applied for
 * them, so a change they have not heard of yet is alerted to them and not swallowed by the
 * newcomer's baseline; otherwise the brand's state is replaced by the baseline.
 */
export function baselineCitationsForSubscription(
  stores: CitationStores,
  brandId: string,
  feed: CitationFeedResponse,
  watching: readonly Subscription[],
  nowMs: number,
): EnqueueCounts {
  if (watching.length > 0) return applyCitationFeed(stores, brandId, feed, watching, nowMs);
  stores.citationState.replace(brandId, baselineCitations(feed, new Map(), nowMs), nowMs);
  return noCounts();
}

/** How far back the feed must reach for `brandId` now; the widest feed for a baseline. */
export function feedDaysBack(lastSuccessMs: number | null, nowMs: number): number {
  return lastSuccessMs === null ? MAX_DAYS_BACK : daysBackSince(lastSuccessMs, nowMs);
}

export const citationsJob: JobDefinition = {
  name: 'citations',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const last = ctx.jobRuns.lastSuccess('citations', brand.id);
    const feed = await fetchCitationFeed(ctx.deps.api, brand.id, feedDaysBack(last, nowMs), ctx.call);
    return transaction(ctx.db, () => {
      // Never baselined (subscribed before the bot recorded baselines): baseline now,
      // silently, rather than alert on every change the feed happens to list.
      if (last === null) return baselineCitationsForSubscription(ctx, brand.id, feed, [], nowMs);
      return applyCitationFeed(ctx, brand.id, feed, subs, nowMs);
    });
  },
};
