/**
 * What the scheduler reports about itself (/healthz via metrics.setSchedulerState, and
 * `/visibility status`): the polling plan against the daily quota, and per job its
 * interval, last run and next run.
 */
import type { JobName } from './job-names.js';

/** How a job run ended. */
/** `database_unavailable`: stopped because the database could not be used; run again once it answers. */
export type JobStatus =
  | 'ok'
  | 'failed'
  | 'skipped'
  | 'quota_spent'
  | 'key_rejected'
  | 'aborted'
  | 'database_unavailable';

export interface SchedulerJobState {
  /** Poll interval in hours; null for the digest (due per subscription). */
  intervalHours: number | null;
  lastRunAtMs: number | null;
  lastOk: boolean | null;
  lastStatus: JobStatus | null;
  lastDetail: string | null;
  nextRunAtMs: number | null;
  /**
   * The digest only: when the next digest is prepared (its ideas fetched, its message
   * written to wait for its time), the scheduler's lead before `nextRunAtMs`.
   */
  prepareAtMs?: number | null;
  /** Failed runs in a row (job_failing is raised at 3). */
  failureStreak: number;
  running: boolean;
}

export interface SchedulerSnapshot {
  running: boolean;
  atMs: number;
  plan: {
    brands: number;
    dailyLimit: number | null;
    budgetPerDay: number | null;
    callsPerDay: number;
    callsPerBrandPerDay: number;
    /** Brands the budget covers at these settings; null = unlimited. */
    maxBrands?: number | null;
    intervalsHours: { citations: number; crawler: number; 'ai-pages': number };
    stretched: boolean;
    warning: string | null;
  };
  /** Set while the daily quota is spent: no job runs until then (epoch ms). */
  quotaWaitUntilMs: number | null;
  jobs: Record<JobName, SchedulerJobState>;
}

/** Reads a snapshot back from metrics.schedulerState() (typed loosely there). */
export function asSchedulerSnapshot(state: Record<string, unknown> | undefined): SchedulerSnapshot | null {
  if (!state || typeof state['jobs'] !== 'object' || typeof state['plan'] !== 'object') return null;
  return state as unknown as SchedulerSnapshot;
}
