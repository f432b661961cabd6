/**
 * What every job run uses: the deps it was given (API, store, clock, the jobs' settings), the
 * store's repositories, the bot's health reporting and the run's cancel signal.
 * Built once per `runJobs` call; jobs read nothing else.
 */

import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { ChannelDetectorStateRepo } from '../store/channel-detector-state-repo.js';
import type { CitationStateRepo } from '../store/citation-state-repo.js';
import type { JobRunsRepo } from '../store/job-runs-repo.js';
import type { OutboxRepo } from '../store/outbox-repo.js';
import type { PollObservationsRepo } from '../store/poll-observations-repo.js';
import type { SnoozesRepo } from '../store/snoozes-repo.js';
import type { Store } from '../store/store.js';
import type { SubscriptionsRepo } from '../store/subscriptions-repo.js';
import type { AlertSink } from '../use-cases/enqueue-alerts.js';
import type { BotHealth } from './bot-health.js';
import type { JobSettings } from './job-settings.js';

/** What a job is given: the API (background lane), the database, the clock, the jobs' settings, the logger. */
export interface JobDeps {
  api: VisibilityApi;
  store: Store;
  clock: Clock;
  config: JobSettings;
  logger: Logger;
}

export interface JobContext {
  deps: JobDeps;
  store: Store;
  clock: Clock;
  logger: Logger;
  subscriptions: SubscriptionsRepo;
  citationState: CitationStateRepo;
  levels: ChannelDetectorStateRepo;
  snoozes: SnoozesRepo;
  outbox: OutboxRepo;
  jobRuns: JobRunsRepo;
  /** What each poll last saw per brand (the digest reuses it). */
  observations: PollObservationsRepo;
  health: BotHealth;
  /** Where alert messages go: the outbox, with the channel's holds applied. */
  sink: AlertSink;
  /** Every API call of a job: the background lane, so people in Slack go first. */
  call: CallOptions;
  signal: AbortSignal | undefined;
}

export function createJobContext(
  deps: JobDeps,
  options: { outbox: OutboxRepo; health: BotHealth; signal?: AbortSignal | undefined },
): JobContext {
  const { store, clock } = deps;
  const { outbox, health } = options;
  const logger = deps.logger.child({ component: 'jobs' });
  const snoozes = store.snoozes;
  return {
    deps,
    store,
    clock,
    logger,
    subscriptions: store.subscriptions,
    citationState: store.citationState,
    levels: store.channelDetectorState,
    snoozes,
    outbox,
    jobRuns: store.jobRuns,
    observations: store.pollObservations,
    health,
    sink: { outbox, snoozes, defaultTimezone: deps.config.defaultTimezone },
    call: { lane: 'background', ...(options.signal ? { signal: options.signal } : {}) },
    signal: options.signal,
  };
}
