/**
 * The bot's own trouble (docs/alert-semantics.md: key rejected, daily quota spent, jobs failing), kept
 * so each problem is reported once when it starts and once when it clears, however many
 * runs see it in between.
 *
 * A flag that clears and comes back before either change was reported produces no report
 * at all: the people in the ops channel already heard it is broken, and it still is.
 */

/** Well-known keys; `job_failing:<job>` is built with `jobFailingFlag`. */
export const HealthFlagKey = {
  KeyRejected: 'key_rejected',
  QuotaSpent: 'quota_spent',
} as const;
export const jobFailingFlag = (job: string) => `job_failing:${job}`;

export interface HealthFlag {
  key: string;
  detail: string | null;
  raisedAtMs: number;
  raisedReportedAtMs: number | null;
  clearedAtMs: number | null;
  clearedReportedAtMs: number | null;
}

export interface HealthReport {
  key: string;
  event: 'raised' | 'cleared';
  detail: string | null;
  atMs: number;
}

export interface HealthFlagsRepo {
  /** true when this starts a new episode (the flag was not active). */
  raise(key: string, detail: string | null, nowMs: number): Promise<boolean>;
  /** true when an active flag was cleared. */
  clear(key: string, nowMs: number): Promise<boolean>;
  /** Raised flags, cleared or not, that still owe a report; oldest first. */
  pendingReports(): Promise<HealthReport[]>;
  markReported(key: string, event: 'raised' | 'cleared', nowMs: number): Promise<void>;
  /** Flags currently raised (for `status` and /healthz). */
  active(): Promise<HealthFlag[]>;
  get(key: string): Promise<HealthFlag | null>;
}
