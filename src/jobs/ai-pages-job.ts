/**
 * AI Pages usage and status: one request per brand, checked against each channel's levels
 * with that channel's state. No entitlement (403 here, unlike anywhere else, is about the
 * plan and not the key) and "not set up" (config null) are noted once, not alerted daily:
 * the detector remembers it has said so. The call comes before the writes, which the runner
 * commits LEVEL_BRANDS_PER_COMMIT brands to a transaction (brand-batch.ts).
 *
 * Polled at the rhythm of the usage: the job runs every few hours, but a brand is asked
 * only once a day unless, at the pace its usage samples show, it reaches its next
 * threshold before the next run. Then that run asks (a fresh sample, so a fresh forecast),
 * and so does the run after the crossing, so the alert comes within one run of it, while
 * a brand costs one call a day plus about two on a day it crosses a threshold. Usage that
 * grows faster than its pace said is still caught by the daily poll.
 */

import {
  forecastUsage,
  reachesLevelAt,
  type UsageSample,
  usageOutlook,
  withReading,
} from '../alerts/ai-pages-forecast.js';
import { type AiPagesInput, detectAiPages, isAiPagesUnavailable } from '../alerts/detect-ai-pages.js';
import type { PollObservation } from '../store/poll-observations-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { fetchAiPagesInput } from '../use-cases/fetch-digest-sections.js';
import { AI_PAGES_RUN_HOURS } from '../use-cases/plan-polling.js';
import { applyChannelLevels } from './apply-channel-levels.js';
import { LEVEL_BRANDS_PER_COMMIT, withBatchSink } from './brand-batch.js';
import type { JobDefinition } from './job-definition.js';
import { byBrand, readAhead } from './read-ahead.js';

/** A brand far from its next threshold is asked this often. */
const AI_PAGES_FAR_POLL_MS = 24 * 3_600_000;
/** A brand whose forecast crossing falls within this much of now is asked: one run. */
const NEAR_WINDOW_MS = AI_PAGES_RUN_HOURS * 3_600_000;
/** Slots are aligned, so a daily poll comes back a little under 24 h later at times. */
const SLOT_SLACK_MS = 30 * 60_000;
export interface AiPagesObservation {
  input: AiPagesInput;
  samples: UsageSample[];
}

/** The samples after a poll: its reading added (ai-pages-forecast.ts), or as they were when it had none. */
export function nextSamples(
  samples: readonly UsageSample[],
  input: AiPagesInput,
  nowMs: number,
): UsageSample[] {
  if (isAiPagesUnavailable(input) || !input.usage) return [...samples];
  return withReading(samples, input.usage, nowMs);
}

/**
 * Whether a scheduled run asks for this brand now: never seen, a day since it was asked,
 * or on course to reach one of its channels' next thresholds before the next run (or
 * already past the time its pace said it would).
 */
export function aiPagesPollDue(
  seen: PollObservation<AiPagesObservation> | null,
  thresholds: readonly number[],
  nowMs: number,
): boolean {
  if (!seen) return true;
  if (nowMs - seen.observedAtMs >= AI_PAGES_FAR_POLL_MS - SLOT_SLACK_MS) return true;
  const last = seen.data.samples.at(-1);
  const forecast = forecastUsage(seen.data.samples);
  if (!last || !forecast) return false;
  const next = thresholds.filter((t) => t > last.percentage);
  if (next.length === 0) return false;
  return reachesLevelAt(last, forecast, Math.min(...next)) <= nowMs + NEAR_WINDOW_MS;
}

/**
 * Every brand's last observation, read by the run's `select` (one statement), taken by
 * each brand's run instead of reading its own again (read-ahead.ts).
 */
const lastPolls = readAhead<PollObservation<AiPagesObservation> | null>();

/** The subscriptions of the brands whose poll is due (aiPagesPollDue). */
function dueSubscriptions(
  subs: readonly Subscription[],
  observed: ReadonlyMap<string, PollObservation<AiPagesObservation>>,
  nowMs: number,
): Subscription[] {
  const byBrand = new Map<string, Subscription[]>();
  for (const s of subs) byBrand.set(s.brandId, [...(byBrand.get(s.brandId) ?? []), s]);
  const due: Subscription[] = [];
  for (const [brandId, own] of byBrand) {
    const thresholds = own.flatMap((s) => s.settings.aiPagesThresholds);
    if (aiPagesPollDue(observed.get(brandId) ?? null, thresholds, nowMs)) due.push(...own);
  }
  return due;
}

export const aiPagesJob: JobDefinition = {
  name: 'ai-pages',
  brandsPerCommit: LEVEL_BRANDS_PER_COMMIT,
  select: async (ctx, run) => {
    const subs = await ctx.subscriptions.listActive('alerts');
    if (subs.length === 0) return subs;
    // Every brand's last poll in one statement, not one per brand: for planning, and for
    // the brands' runs (lastPollOf).
    const observed = await ctx.observations.allOf<AiPagesObservation>('ai-pages');
    const due = run.force ? subs : dueSubscriptions(subs, observed, run.nowMs);
    lastPolls.keep(
      ctx,
      byBrand(new Set(due.map((s) => s.brandId)), (id) => observed.get(id) ?? null),
    );
    return due;
  },
  async prepareBrand(ctx, brand, subs, { nowMs }) {
    const seen = await lastPolls.take(ctx, brand.id, () =>
      ctx.observations.get<AiPagesObservation>(brand.id, 'ai-pages'),
    );
    const input = await fetchAiPagesInput(ctx.deps.api, brand.id, ctx.call);
    const samples = nextSamples(seen?.data.samples ?? [], input, nowMs);
    const outlook = usageOutlook(samples);
    // Written by the runner with other brands' in one transaction (brand-batch.ts).
    return async (batch) => {
      const observation: AiPagesObservation = { input, samples };
      batch.observe({ brandId: brand.id, source: 'ai-pages', data: observation, observedAtMs: nowMs });
      return applyChannelLevels({ sink: withBatchSink(ctx.sink, batch) }, subs, nowMs, {
        load: (channelId) => batch.aiPagesLevel(channelId, brand.id),
        save: (channelId, state) =>
          batch.saveLevel({ channelId, brandId: brand.id, detector: 'aiPages', state, nowMs }),
        detect: (prev, settings) => detectAiPages(prev, input, settings, brand, nowMs, outlook),
      });
    };
  },
};
