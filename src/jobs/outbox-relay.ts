/**
 * Delivers the outbox to Slack, effectively once (docs/alert-semantics.md: an alert is never
 * missed and never repeated). The stages are in relay/: claim-by-channel (leases, a few
 * rows per channel), deliver-row (screen-row, await-turn for the pace, verify-before-posting
 * after an unknown outcome, the post or deliver-chart), settle-failure (429s, gone channels,
 * refused blocks, backoff), recover-sending (crashed deliveries), drain-outbox and
 * relay-loop. This module wires them to one relay's state and settings.
 */

import type { WebClient } from '@slack/web-api';
import { type ChartRenderer, createChartRenderer } from '../charts/chart-renderer.js';
import type { Clock } from '../clock.js';
import type { DatabaseHealth } from '../database-health.js';
import type { DeliveryNudge } from '../delivery-nudge.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { OutboxRepo } from '../store/outbox-repo.js';
import type { Store } from '../store/store.js';
import type { SubscriptionsRepo } from '../store/subscriptions-repo.js';
import { createChannelPacer } from './channel-pacer.js';
import { createOutboxChartImages } from './outbox-chart-images.js';
import { type DrainResult, drainOutbox } from './relay/drain-outbox.js';
import { recoverSending } from './relay/recover-sending.js';
import { freshDrainState, type RelayContext, type RelayHealth } from './relay/relay-context.js';
import { runRelayLoop } from './relay/relay-loop.js';

// The names the rest of the code imports from here.
export { type DrainResult, emptyDrainResult } from './relay/drain-outbox.js';
export { DELIVERY_FLAG, UNCONFIRMED } from './relay/relay-context.js';

/** What the relay uses of the app's dependencies (AppDeps has them under these names). */
export interface RelayDeps {
  store: Store;
  /** Built with webClientOptions(config, 'outbox', …): rejectRateLimitedCalls, no retries. */
  web: WebClient;
  clock: Clock;
  logger: Logger;
  metrics?: Pick<Metrics, 'observeDelivery'>;
  /** Renders `chart` rows (the process's bound); default: a renderer of the relay's own. */
  charts?: ChartRenderer;
  /** Tells the loop when the database answers again after an outage (it then drains at once). */
  database?: Pick<DatabaseHealth, 'onChange'>;
  /** While start()ed, a nudge ends the loop's wait: held alerts just released go out now. */
  deliveryNudge?: DeliveryNudge;
}

export interface OutboxRelayOptions {
  /** Lease owner id, unique per process (e.g. `serve:<pid>`). */
  owner: string;
  /** Defaults: the store's repositories. */
  outbox?: OutboxRepo;
  subscriptions?: SubscriptionsRepo;
  /** Where a delivery that gave up is reported (bot-health.ts). */
  health?: RelayHealth;
  /** Minimum gap between posts to one channel; default 1000. */
  paceMs?: number;
  /** Attempts (Slack calls that failed for a retryable reason) before a row fails; default 12. */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt up to backoffMaxMs. Defaults 5 s and 15 min. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long a claim is good for; keep it well above the Slack call timeout. Default 60 s. */
  leaseMs?: number;
  /** Rows claimed at once, at most PER_CHANNEL_CLAIM per channel; default 40. */
  batchSize?: number;
  /** History is searched from this long before the row was created; default 5 min. */
  historyMarginMs?: number;
}

/** The relay's knobs a caller may turn (tests and the demo deliver faster). */
export type RelayTuning = Partial<
  Pick<
    OutboxRelayOptions,
    'paceMs' | 'maxAttempts' | 'backoffBaseMs' | 'backoffMaxMs' | 'leaseMs' | 'batchSize'
  >
>;

export interface OutboxRelay {
  drainOnce(): Promise<DrainResult>;
  /** Resolves 'sending' rows whose lease expired; returns how many. */
  recoverSending(): Promise<number>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

const DEFAULTS = {
  paceMs: 1000,
  maxAttempts: 12,
  backoffBaseMs: 5000,
  backoffMaxMs: 15 * 60_000,
  leaseMs: 60_000,
  batchSize: 40,
  historyMarginMs: 5 * 60_000,
};

/** One relay's shared state, built from its dependencies and options (each stage's first argument). */
export function createRelayContext(deps: RelayDeps, options: OutboxRelayOptions): RelayContext {
  const { owner, outbox, subscriptions, health, ...tuning } = options;
  const settings = { ...DEFAULTS, ...stripUndefined(tuning) };
  const { store, clock } = deps;
  const logger = deps.logger.child({ component: 'outbox-relay', owner });
  const charts = deps.charts ?? createChartRenderer();
  // deps.web is read where a call is made: the client package loads on the first post.
  const web = () => deps.web;
  return {
    owner,
    store,
    outbox: outbox ?? store.outbox({ owner }),
    subscriptions: subscriptions ?? store.subscriptions,
    web,
    clock,
    logger,
    metrics: deps.metrics,
    health,
    pacer: createChannelPacer(store.channelPace, {
      paceMs: settings.paceMs,
      onError: (err, channel) => logger.warn({ err, channel }, 'could not record the channel pace'),
    }),
    charts,
    chartImages: createOutboxChartImages({
      web,
      workspaceCharts: store.workspaceCharts,
      renderer: () => charts,
      clock,
      logger,
    }),
    settings,
    drain: freshDrainState(),
    stopSignal: undefined,
  };
}

export function createOutboxRelay(deps: RelayDeps, options: OutboxRelayOptions): OutboxRelay {
  const ctx = createRelayContext(deps, options);
  let stopping: AbortController | undefined;

  // One drain at a time per relay; a call during a drain runs after it.
  let chain: Promise<unknown> = Promise.resolve();
  const drainOnce = (): Promise<DrainResult> => {
    const drain = () => drainOutbox(ctx);
    const run = chain.then(drain, drain);
    chain = run.catch(() => {});
    return run;
  };
  const setStopping = (controller: AbortController | undefined) => {
    stopping = controller;
    ctx.stopSignal = controller?.signal;
  };

  let loop: Promise<void> | undefined;
  return {
    drainOnce,
    recoverSending: () => recoverSending(ctx),
    start(intervalMs) {
      if (loop) return;
      const controller = new AbortController();
      setStopping(controller);
      const { outbox, clock, logger } = ctx;
      const loopDeps = {
        drainOnce,
        outbox,
        clock,
        logger,
        database: deps.database,
        deliveryNudge: deps.deliveryNudge,
      };
      loop = runRelayLoop(loopDeps, intervalMs, controller.signal);
    },
    async stop() {
      const controller = stopping ?? new AbortController();
      setStopping(controller);
      controller.abort();
      await loop;
      await chain;
      loop = undefined;
      // Usable again afterwards (run-job drains, stops, and may drain once more).
      if (stopping === controller) setStopping(undefined);
    },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
