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
import { runTimeOfDayMs } from './data-rhythm.js';
import { feedDaysBackFor } from './days-back.js';
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
export function feedDaysBack(
  lastSuccessMs: number | null,
  nowMs: number,
  lastSnapshotDate: string | null = null,
): number {
  return feedDaysBackFor(lastSuccessMs, lastSnapshotDate, nowMs);
}

/** What the citations poll keeps for later runs and for the digest. */
export interface CitationsObservation {
  /** The feed's `current_snapshot_date`: the next feed reads from the snapshot after it. */
  currentSnapshotDate: string | null;
  /** The feed narrowed to the last snapshot's events: what a one-day feed would say. */
  lastDay: CitationFeedResponse;
  /** Time of day (ms into the UTC day) of the service's research run, from event times. */
  runTimeOfDayMs: number | null;
}

/** The events of the feed's latest snapshot (a wider feed also lists older days). */
export function lastDayOf(feed: CitationFeedResponse, daysBack: number): CitationFeedResponse {
  const day = feed.current_snapshot_date;
  if (daysBack <= 1 || day === null) return feed;
  return { ...feed, events: feed.events.filter((e) => e.timestamp.slice(0, 10) >= day) };
}

export const citationsJob: JobDefinition = {
  name: 'citations',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const last = ctx.jobRuns.lastSuccess('citations', brand.id);
    const seen = ctx.observations.get<CitationsObservation>(brand.id, 'citations');
    const daysBack = feedDaysBack(last, nowMs, seen?.data.currentSnapshotDate ?? null);
    const feed = await fetchCitationFeed(ctx.deps.api, brand.id, daysBack, ctx.call);
    return transaction(ctx.db, () => {
      ctx.observations.put<CitationsObservation>(
        brand.id,
        'citations',
        {
          currentSnapshotDate: feed.current_snapshot_date ?? seen?.data.currentSnapshotDate ?? null,
          lastDay: lastDayOf(feed, daysBack),
          runTimeOfDayMs:
            runTimeOfDayMs(feed.events.map((e) => e.timestamp)) ?? seen?.data.runTimeOfDayMs ?? null,
        },
        nowMs,
      );
      // Never baselined (subscribed before the bot recorded baselines): baseline now,
      // silently, rather than alert on every change the feed happens to list.
      if (last === null) return baselineCitationsForSubscription(ctx, brand.id, feed, [], nowMs);
      return applyCitationFeed(ctx, brand.id, feed, subs, nowMs);
    });
  },
};
