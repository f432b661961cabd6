/**
 * A subscription created or extended, with its citation baseline (docs/alert-semantics.md: citation
 * events are baselined silently): when the subscription starts alerting, the brand's
 * current feed is read and recorded in the same transaction that writes the subscription,
 * so the first run alerts only on what changes afterwards. A subscription that already
 * alerts keeps its state. Levels (crawler, AI Pages) need no baseline: they alert on first
 * sight.
 *
 * The checks around it (who may subscribe, where the bot may post) belong to the caller.
 */
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { baselineCitationsForSubscription } from './apply-citation-feed.js';
import { feedDaysBackFor } from './days-back.js';
import { fetchCitationFeed } from './fetch-citation-feed.js';

/** The feed (API), the subscription and its baseline (database), DEFAULT_TIMEZONE for alert holds. */
export interface SubscribeDeps {
  api: VisibilityApi;
  store: Store;
  clock: Clock;
  config: { defaultTimezone: string };
}

/** What a subscription sends: alerts, the daily digest; both when left out. */
export type SubscriptionKind = 'alerts' | 'digest';

interface SubscribeRequest {
  channelId: string;
  brand: { id: string; name: string };
  kind: SubscriptionKind | undefined;
  userId: string;
  /**
   * Options for the feed request, if any: a Slack request's `deps.api` already puts its
   * calls in the person's lane (request-deps.ts), so it need not pass one.
   */
  call?: CallOptions;
}

interface SubscribeOutcome {
  subscription: Subscription;
  /** False when the channel already had a subscription to the brand. */
  created: boolean;
  alerts: boolean;
  digest: boolean;
  /** True when the brand's citation feed was read and recorded as the baseline. */
  baselined: boolean;
  /** When the subscription was written. */
  atMs: number;
}

/** Other channels' live alert subscriptions to the brand: they share its citation state. */
const watchers = (subs: readonly Subscription[], channelId: string) =>
  subs.filter((s) => s.alerts && !s.pausedReason && s.channelId !== channelId);

export async function subscribeWithBaseline(
  deps: SubscribeDeps,
  req: SubscribeRequest,
): Promise<SubscribeOutcome> {
  const { channelId, brand, kind, userId } = req;
  const subs = deps.store.subscriptions;
  const jobRuns = deps.store.jobRuns;
  const existing = await subs.get(channelId, brand.id);
  const alerts = kind !== 'digest' || existing?.alerts === true;
  const digest = kind !== 'alerts' || existing?.digest === true;
  // A subscription that already alerts keeps its state; a new or resumed one is baselined.
  const baseline = alerts && !(existing?.alerts && !existing.pausedReason);

  // When other channels watch the brand, the feed reaches back to its last citations run
  // (they must hear of what changed since); alone, the widest feed makes the baseline.
  const feed = baseline
    ? await fetchCitationFeed(
        deps.api,
        brand.id,
        feedDaysBackFor(
          watchers(await subs.listByBrand(brand.id), channelId).length > 0
            ? await jobRuns.lastSuccess('citations', brand.id)
            : null,
          null,
          deps.clock.now(),
        ),
        req.call ?? {},
      )
    : null;

  const now = deps.clock.now();
  const { subscription, created } = await deps.store.transaction(async () => {
    if (feed) {
      await baselineCitationsForSubscription(
        {
          citationState: deps.store.citationState,
          sink: {
            outbox: deps.store.outbox(),
            snoozes: deps.store.snoozes,
            defaultTimezone: deps.config.defaultTimezone,
          },
        },
        brand.id,
        feed,
        // Read again inside the transaction: a subscription may have changed meanwhile.
        watchers(await subs.listByBrand(brand.id), channelId),
        now,
      );
      await jobRuns.recordBrandSuccess('citations', brand.id, now);
    }
    return subs.upsert({
      channelId,
      brandId: brand.id,
      brandName: brand.name,
      alerts,
      digest,
      createdBy: userId,
      createdAtMs: now,
    });
  });
  return { subscription, created, alerts, digest, baselined: feed !== null, atMs: now };
}
