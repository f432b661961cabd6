/**
 * Citations: one feed request per brand, covering the time since that brand's last
 * successful run, applied to the brand's per-URL state (src/alerting/apply-citation-feed.ts).
 */
import { applyCitationFeed, baselineCitationsForSubscription } from '../alerting/apply-citation-feed.js';
import { runTimeOfDayMs } from '../alerting/data-rhythm.js';
import { feedDaysBackFor } from '../alerting/days-back.js';
import { fetchCitationFeed } from '../alerting/fetch-citation-feed.js';
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { JobDefinition } from './job-definition.js';

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

function* timestampsOf(feed: CitationFeedResponse): Generator<string> {
  for (const e of feed.events) yield e.timestamp;
}

export const citationsJob: JobDefinition = {
  name: 'citations',
  select: (ctx) => ctx.subscriptions.listActive('alerts'),
  async runBrand(ctx, brand, subs, { nowMs }) {
    const last = await ctx.jobRuns.lastSuccess('citations', brand.id);
    const seen = await ctx.observations.get<CitationsObservation>(brand.id, 'citations');
    const daysBack = feedDaysBackFor(last, seen?.data.currentSnapshotDate ?? null, nowMs);
    const feed = await fetchCitationFeed(ctx.deps.api, brand.id, daysBack, ctx.call);
    return ctx.store.transaction(async () => {
      await ctx.observations.put<CitationsObservation>(
        brand.id,
        'citations',
        {
          currentSnapshotDate: feed.current_snapshot_date ?? seen?.data.currentSnapshotDate ?? null,
          lastDay: lastDayOf(feed, daysBack),
          runTimeOfDayMs: runTimeOfDayMs(timestampsOf(feed)) ?? seen?.data.runTimeOfDayMs ?? null,
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
