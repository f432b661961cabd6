/**
 * Citations: one feed request per brand, covering the time since that brand's last
 * successful run, applied to the brand's per-URL state (src/use-cases/apply-citation-feed.ts).
 * Brands with AI model alerts on also read the citation list (one more call, counted in the
 * polling plan); lost pages get why-lines within the run's bound of
 * WHY_CALLS_PER_CITATIONS_RUN calls across all brands (src/use-cases/citation-run-extras.ts).
 * Every API call comes before the transaction; the writes (each state and the outbox rows
 * it produced together) go in the transaction the runner shares among several brands
 * (brand-batch.ts).
 */

import { type DigestCitations, digestCitationsOf } from '../alerts/compose-digest.js';
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { PollObservation } from '../store/poll-observations-repo.js';
import { applyCitationFeed, baselineCitationsForSubscription } from '../use-cases/apply-citation-feed.js';
import {
  applyModelList,
  fetchLostPageWhy,
  fetchModelList,
  finishCitationAlerts,
  wantsModelAlerts,
} from '../use-cases/citation-run-extras.js';
import { runTimeOfDayMs } from '../use-cases/data-rhythm.js';
import { feedDaysBackFor } from '../use-cases/days-back.js';
import { fetchCitationFeed } from '../use-cases/fetch-citation-feed.js';
import { runBudget } from '../use-cases/fetch-why-data.js';
import { WHY_CALLS_PER_CITATIONS_RUN } from '../use-cases/plan-polling.js';
import { withBatchCitationState, withBatchSink } from './brand-batch.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition } from './job-definition.js';
import { byBrand, readAhead } from './read-ahead.js';

/** What the citations poll keeps for later runs and for the digest. */
export interface CitationsObservation {
  /** The feed's `current_snapshot_date`: the next feed reads from the snapshot after it. */
  currentSnapshotDate: string | null;
  /**
   * The digest's citations section made from the feed the service sent (its totals and its
   * new and lost pages cover the same two snapshots, so the digest's figures add up): a
   * kilobyte or two per brand, where the feed's new and lost events were tens. Observations
   * stored before this field have none; the digest then reads `feed`, or asks the service.
   */
  citations?: DigestCitations;
  /** The feed (older observations: the whole feed, or its new and lost events); read, no longer written. */
  feed?: CitationFeedResponse;
  /** Time of day (ms into the UTC day) of the service's research run, from event times. */
  runTimeOfDayMs: number | null;
}

/**
 * What a run reads of the brand's last citations observation: the stored one also holds
 * the digest's citations section (or, stored by an older release, the feed), which the
 * database leaves out.
 */
const SEEN_FIELDS = ['currentSnapshotDate', 'runTimeOfDayMs'] as const;
type SeenField = (typeof SEEN_FIELDS)[number];
type Seen = PollObservation<Partial<Pick<CitationsObservation, SeenField>>>;

/** The brand's last success and last observation. */
interface LastRun {
  last: number | null;
  seen: Seen | null;
}

/**
 * Every brand's last success and last observation, read by the run's `select` in one
 * statement each instead of two per brand (read-ahead.ts). A subscribe that baselines a
 * brand meanwhile stamps its success; the run then reads a wider feed than it needed and
 * alerts, against the state it reads in its transaction, on the same changes.
 */
const lastRuns = readAhead<LastRun>();

const lastRunAlone = async (ctx: JobContext, brandId: string): Promise<LastRun> => ({
  last: await ctx.jobRuns.lastSuccess('citations', brandId),
  seen: await ctx.observations.getFields<CitationsObservation, SeenField>(brandId, 'citations', SEEN_FIELDS),
});

export const citationsJob: JobDefinition = {
  name: 'citations',
  async select(ctx) {
    const subs = await ctx.subscriptions.listActive('alerts');
    if (subs.length === 0) return subs;
    const last = await ctx.jobRuns.lastSuccessByBrand('citations');
    const seen = await ctx.observations.allFieldsOf<CitationsObservation, SeenField>(
      'citations',
      SEEN_FIELDS,
    );
    const entry = (id: string) => ({ last: last.get(id) ?? null, seen: seen.get(id) ?? null });
    lastRuns.keep(ctx, byBrand(new Set(subs.map((s) => s.brandId)), entry));
    return subs;
  },
  async prepareBrand(ctx, brand, subs, { nowMs }) {
    const { last, seen } = await lastRuns.take(ctx, brand.id, () => lastRunAlone(ctx, brand.id));
    const daysBack = feedDaysBackFor(last, seen?.data.currentSnapshotDate ?? null, nowMs);
    const feed = await fetchCitationFeed(ctx.deps.api, brand.id, daysBack, ctx.call);
    const forDigest = digestCitationsOf(feed);
    const list = wantsModelAlerts(subs) ? await fetchModelList(ctx.deps.api, brand.id, ctx.call) : null;
    const why =
      last === null
        ? new Map<string, string[]>()
        : await fetchLostPageWhy(
            {
              api: ctx.deps.api,
              call: ctx.call,
              budget: runBudget(ctx, 'citations', WHY_CALLS_PER_CITATIONS_RUN),
              logger: ctx.logger,
            },
            brand.id,
            ctx.citationState,
            feed,
            subs,
            nowMs,
          );
    // Written by the runner with other brands' in one transaction (brand-batch.ts); the
    // state is read there, so what it detects against is what it commits over.
    return async (batch) => {
      const observation: CitationsObservation = {
        currentSnapshotDate: feed.current_snapshot_date ?? seen?.data.currentSnapshotDate ?? null,
        citations: forDigest,
        runTimeOfDayMs: runTimeOfDayMs(feed.events) ?? seen?.data.runTimeOfDayMs ?? null,
      };
      batch.observe({ brandId: brand.id, source: 'citations', data: observation, observedAtMs: nowMs });
      const model = list
        ? await applyModelList(ctx.store.modelCitationState, brand, list, nowMs, last === null)
        : null;
      // Never baselined (subscribed before the bot recorded baselines): baseline now,
      // silently, rather than alert on every change the feed happens to list.
      const stores = {
        citationState: withBatchCitationState(ctx.citationState, batch),
        sink: withBatchSink(ctx.sink, batch),
      };
      if (last === null) return baselineCitationsForSubscription(stores, brand.id, feed, [], nowMs);
      return applyCitationFeed(stores, brand.id, feed, subs, nowMs, finishCitationAlerts(why, model));
    };
  },
};
