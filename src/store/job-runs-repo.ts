/**
 * Job bookkeeping: a row per run (for `status` and metrics), each brand's last success
 * (the citations job asks for a `days_back` covering the time since then), and a per-job
 * lease so `serve` and `run-job` never run the same job at the same time.
 */

export type JobCounts = Record<string, number>;

export interface JobRun {
  id: number;
  job: string;
  owner: string | null;
  startedAtMs: number;
  finishedAtMs: number | null;
  /** null while running */
  ok: boolean | null;
  error: string | null;
  counts: JobCounts;
}

export interface JobLease {
  job: string;
  owner: string;
  acquiredAtMs: number;
  expiresAtMs: number;
}

export interface JobRunsRepo {
  start(job: string, owner?: string | null): Promise<number>;
  finish(runId: number, result: { ok: boolean; error?: string | null; counts?: JobCounts }): Promise<void>;
  /** Records that `job` succeeded for one brand (at the clock's now unless given). */
  recordBrandSuccess(job: string, brandId: string, atMs?: number): Promise<void>;
  /** The same for several brands, in one statement (a batch of brands committed together). */
  recordBrandSuccesses(job: string, brandIds: readonly string[], atMs?: number): Promise<void>;
  /** Last successful finish of the job as a whole, or, with `brandId`, for that brand. */
  lastSuccess(job: string, brandId?: string): Promise<number | null>;
  /** Last successes for many brands at once (the job's planning step). */
  lastSuccessByBrand(job: string): Promise<Map<string, number>>;
  recent(limit: number, job?: string): Promise<JobRun[]>;
  /** Consecutive failed runs since the last success (for job_failing health flags). */
  failureStreak(job: string): Promise<number>;
  /**
   * Takes the job's lease if it is free, expired, or already ours (then it is extended).
   * Atomic across processes: exactly one caller gets `true`.
   */
  acquireLease(job: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lease we hold; false when it is not (or no longer) ours. */
  renewLease(job: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLease(job: string, owner: string): Promise<boolean>;
  getLease(job: string): Promise<JobLease | null>;
  /**
   * Deletes at most `limit` runs started before `cutoffMs`, oldest first, never the newest
   * run of a job (the scheduler reads when each job last ran); returns how many.
   */
  purgeStartedBefore(cutoffMs: number, limit: number): Promise<number>;
}
