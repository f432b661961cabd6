/**
 * What every stage of the outbox relay shares: the repositories and clients it works
 * with, its settings, and the state of the drain in progress. outbox-relay.ts builds one
 * per relay (createRelayContext); each stage takes it as its first argument.
 */
import type { WebClient } from '@slack/web-api';
import type { ChartRenderer } from '../../charts/chart-renderer.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import type { OutboxMessage, OutboxRepo } from '../../store/outbox-repo.js';
import type { Store } from '../../store/store.js';
import type { SubscriptionsRepo } from '../../store/subscriptions-repo.js';
import type { ChannelPacer } from '../channel-pacer.js';
import type { OutboxChartImages } from '../outbox-chart-images.js';

/** The health flag raised when a message could not be delivered after every attempt. */
export const DELIVERY_FLAG = 'job_failing:delivery';

/** last_error prefix: the previous attempt may have been accepted; look before posting. */
export const UNCONFIRMED = 'unconfirmed: ';

/** What became of one row; 'deferred': handed back for later, counted nowhere. */
export type Outcome = 'sent' | 'retried' | 'failed' | 'paused' | 'held' | 'deferred';

export interface RelaySettings {
  /** Minimum gap between posts to one channel. */
  paceMs: number;
  /** Attempts (Slack calls that failed for a retryable reason) before a row fails. */
  maxAttempts: number;
  /** First retry delay; doubles per attempt up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long a claim is good for. */
  leaseMs: number;
  /** Rows claimed at once. */
  batchSize: number;
  /** History is searched from this long before the row was created. */
  historyMarginMs: number;
}

/** Where a delivery that gave up is reported (bot-health.ts). */
export interface RelayHealth {
  raise(flag: typeof DELIVERY_FLAG, detail: string): void;
  clear(flag: typeof DELIVERY_FLAG): void;
}

/** What the drain in progress has learnt; reset at the start of every drain. */
export interface DrainState {
  /** Channels found gone: their other rows are not even tried. Channel → Slack error code. */
  gone: Map<string, string>;
  /** Something was delivered / given up (for the delivery health flag). */
  delivered: boolean;
  gaveUp: boolean;
}

export interface RelayContext {
  owner: string;
  store: Store;
  outbox: OutboxRepo;
  subscriptions: SubscriptionsRepo;
  /** Read where a call is made: the client package loads on the first post. */
  web: () => WebClient;
  clock: Clock;
  logger: Logger;
  metrics?: Pick<Metrics, 'observeDelivery'> | undefined;
  health?: RelayHealth | undefined;
  pacer: ChannelPacer;
  charts: ChartRenderer;
  chartImages: OutboxChartImages;
  settings: RelaySettings;
  drain: DrainState;
  /** Set by stop(): pacing waits end and the rest of the batch goes back to the queue. */
  stopSignal: AbortSignal | undefined;
}

export const freshDrainState = (): DrainState => ({ gone: new Map(), delivered: false, gaveUp: false });

/** A row that failed for its channel being gone counts as paused, an ops report as failed. */
export const goneOutcome = (row: OutboxMessage): Outcome => (row.kind === 'ops' ? 'failed' : 'paused');
