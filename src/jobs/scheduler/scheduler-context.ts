/**
 * What the scheduler's planning and ticking share: its dependencies, settings and the
 * state its runs leave behind (the plan last read, the quota wait, the last summary of
 * each job, the jobs an outage stopped). scheduler.ts builds one per scheduler.
 */

import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import type { CurrentPlan } from '../../use-cases/current-polling-plan.js';
import type { JobName } from '../../use-cases/job-names.js';
import type { BotHealth } from '../bot-health.js';
import type { OutboxRelay } from '../outbox-relay.js';
import type { JobSummary } from '../run-job-once.js';
import type { RunJobsDeps } from '../run-jobs.js';

/** The jobs' dependencies, and the metrics the scheduler publishes its state to (/healthz, `status`). */
export type SchedulerDeps = RunJobsDeps & { metrics: Pick<Metrics, 'observeDelivery' | 'setSchedulerState'> };

export interface SchedulerSettings {
  /** Pause between brands within a job. */
  brandGapMs: number;
  /** How long before its local time a digest is prepared. */
  digestLeadMs: number;
  /** Run the daily housekeeping from the polling tick. */
  housekeeping: boolean;
}

export interface SchedulerState {
  /** Between start() and stop(). */
  running: boolean;
  /** The job running now, if any. */
  current: JobName | null;
  /** The daily quota is spent: no job starts before this. */
  quotaWaitUntil: number | null;
  /** Read at start (replan) and before every poll tick; null only until the first read. */
  plan: CurrentPlan | null;
  /** The plan's warning last logged (logged again only when it changes). */
  warned: string | null;
  /** Each job's last summary in this process. */
  last: Map<JobName, JobSummary>;
  /** Jobs the database stopped: due again at once, once it answers. */
  interrupted: Set<JobName>;
}

export interface SchedulerContext {
  deps: SchedulerDeps;
  logger: Logger;
  /** Lease and claim owner. */
  owner: string;
  health: BotHealth;
  relay: OutboxRelay;
  settings: SchedulerSettings;
  state: SchedulerState;
  /** Aborted by stop(): a job under way stops between brands, queued ticks do nothing. */
  stopSignal: AbortSignal;
}

export const newSchedulerState = (): SchedulerState => ({
  running: false,
  current: null,
  quotaWaitUntil: null,
  plan: null,
  warned: null,
  last: new Map(),
  interrupted: new Set(),
});

/** Whether the spent quota still holds every job back at `nowMs` (the wait ends itself once past). */
export function quotaWaiting(state: SchedulerState, nowMs: number): boolean {
  if (state.quotaWaitUntil !== null && nowMs >= state.quotaWaitUntil) state.quotaWaitUntil = null;
  return state.quotaWaitUntil !== null;
}
