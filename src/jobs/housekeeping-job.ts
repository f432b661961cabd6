/**
 * The daily housekeeping: deletes the rows past their retention (config.ts `Retention`, the
 * RETENTION_* variables), so the tables stay bounded however long the bot runs:
 * - outbox rows posted (or given up) before the messages' retention; a row still to be
 *   delivered (pending, held, being sent) stays whatever its age;
 * - Slack redelivery records past the window Slack redelivers in (nothing reads them later);
 * - snoozes that are over;
 * - what the last poll saw of brands no longer polled, past the poll data's retention;
 * - job run records past theirs (the newest of each job stays: the scheduler reads it);
 * - audit entries past the audit log's (a year by default).
 *
 * Safe with replicas: it takes the job lease like every job (one process runs it at a
 * time; the others skip it and say so), and each purge deletes in batches of `batchSize`
 * rows, short statements that never hold many row locks at once, the lease renewed between
 * them. Even two purges at once delete each row once: a deleted row is gone for the other,
 * and on Postgres each batch skips rows another purge holds.
 *
 * One job_runs row per run (its counts per table) and one log line.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { REDELIVERY_WINDOW_MS } from '../store/handled-requests-repo.js';
import type { Store } from '../store/store.js';
import { acquireJobLease } from './acquire-job-lease.js';
import type { JobSettings } from './job-settings.js';

/** The name its lease and run records go by. */
export const HOUSEKEEPING_JOB = 'housekeeping';

/** Rows one statement deletes at most: a few milliseconds of work on either backend. */
const PURGE_BATCH_ROWS = 1000;

const DAY_MS = 86_400_000;

type HousekeepingDeps = {
  store: Pick<
    Store,
    'outbox' | 'handledRequests' | 'snoozes' | 'pollObservations' | 'jobRuns' | 'auditLog' | 'alertStates'
  >;
  clock: Clock;
  logger: Logger;
  config: Pick<JobSettings, 'retention'>;
};

/** Rows deleted, per table (the job_runs row's counts and the log line's fields). */
export interface HousekeepingCounts {
  outbox: number;
  handledRequests: number;
  snoozes: number;
  pollObservations: number;
  jobRuns: number;
  auditLog: number;
  alertStates: number;
}

export type HousekeepingStatus = 'ok' | 'skipped' | 'aborted' | 'failed' | 'database_unavailable';

export interface HousekeepingSummary {
  status: HousekeepingStatus;
  deleted: HousekeepingCounts;
  durationMs: number;
  /** Why it was skipped or stopped. */
  detail: string | null;
}

interface HousekeepingOptions {
  owner: string;
  /** How long to wait for another process's run; 0 = give up at once (the scheduler). */
  leaseWaitMs: number;
  leaseTtlMs: number;
  /** Default PURGE_BATCH_ROWS. */
  batchSize?: number;
  signal?: AbortSignal;
}

type Purge = { table: keyof HousekeepingCounts; batch: (limit: number) => Promise<number> };

/** Each table's purge, one batch at a time, with its cutoff as of `nowMs`. */
function purges(deps: HousekeepingDeps, nowMs: number): Purge[] {
  const { store } = deps;
  const r = deps.config.retention;
  const before = (days: number) => nowMs - days * DAY_MS;
  const outbox = store.outbox({ owner: HOUSEKEEPING_JOB });
  return [
    { table: 'outbox', batch: (n) => outbox.purgeFinished(before(r.messagesDays), n) },
    {
      table: 'handledRequests',
      batch: (n) => store.handledRequests.purgeBefore(nowMs - REDELIVERY_WINDOW_MS, n),
    },
    { table: 'snoozes', batch: (n) => store.snoozes.purgeExpired(nowMs, n) },
    {
      table: 'pollObservations',
      batch: (n) => store.pollObservations.purgeObservedBefore(before(r.pollDataDays), n),
    },
    { table: 'jobRuns', batch: (n) => store.jobRuns.purgeStartedBefore(before(r.jobRunsDays), n) },
    { table: 'auditLog', batch: (n) => store.auditLog.purgeBefore(before(r.auditDays), n) },
    // Kept as long as the alert messages they are about (the weekly summary reads 7 days).
    { table: 'alertStates', batch: (n) => store.alertStates.purgeBefore(before(r.messagesDays), n) },
  ];
}

const noneDeleted = (): HousekeepingCounts => ({
  outbox: 0,
  handledRequests: 0,
  snoozes: 0,
  pollObservations: 0,
  jobRuns: 0,
  auditLog: 0,
  alertStates: 0,
});

class Stop extends Error {
  constructor(
    readonly status: HousekeepingStatus,
    readonly why: string,
  ) {
    super(why);
  }
}

export async function runHousekeeping(
  deps: HousekeepingDeps,
  o: HousekeepingOptions,
): Promise<HousekeepingSummary> {
  const { clock, store } = deps;
  const logger = deps.logger.child({ job: HOUSEKEEPING_JOB });
  const started = clock.now();
  const deleted = noneDeleted();
  const summary = (status: HousekeepingStatus, detail: string | null = null): HousekeepingSummary => ({
    status,
    deleted,
    durationMs: clock.now() - started,
    detail,
  });
  const jobRuns = store.jobRuns;

  let runId: number;
  try {
    const lease = await acquireJobLease(jobRuns, HOUSEKEEPING_JOB, o.owner, {
      ttlMs: o.leaseTtlMs,
      waitMs: o.leaseWaitMs,
      clock,
      signal: o.signal,
    });
    if (!lease.ok) {
      const detail = `another process is running it (${lease.holder ?? 'unknown'})`;
      logger.info({ holder: lease.holder }, 'housekeeping skipped: another process is running it');
      return summary('skipped', detail);
    }
    runId = await jobRuns.start(HOUSEKEEPING_JOB, o.owner);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return summary('database_unavailable', 'the database could not be used');
  }

  let status: HousekeepingStatus = 'ok';
  let detail: string | null = null;
  try {
    await purgeAll(deps, o, deleted);
  } catch (err) {
    if (err instanceof Stop) {
      status = err.status;
      detail = err.why;
    } else if (isDatabaseUnavailable(err)) {
      status = 'database_unavailable';
      detail = 'the database could not be used';
    } else {
      status = 'failed';
      detail = err instanceof Error ? err.message : String(err);
      logger.error({ err }, 'housekeeping failed');
    }
  } finally {
    await jobRuns.releaseLease(HOUSEKEEPING_JOB, o.owner).catch(() => {});
  }
  const done = summary(status, detail);
  await jobRuns
    .finish(runId, {
      ok: status === 'ok',
      error: status === 'ok' ? null : `${status}${detail ? `: ${detail}` : ''}`,
      counts: { ...deleted },
    })
    .catch((err: unknown) => {
      if (!isDatabaseUnavailable(err)) throw err;
    });
  logger.info({ deleted, durationMs: done.durationMs, detail }, `housekeeping ${status}`);
  return done;
}

/** Every purge to its end, batch after batch, the lease renewed between batches. */
async function purgeAll(deps: HousekeepingDeps, o: HousekeepingOptions, deleted: HousekeepingCounts) {
  const limit = Math.max(1, o.batchSize ?? PURGE_BATCH_ROWS);
  for (const purge of purges(deps, deps.clock.now())) {
    for (;;) {
      if (o.signal?.aborted) throw new Stop('aborted', 'the process is stopping');
      const n = await purge.batch(limit);
      deleted[purge.table] += n;
      // Fewer than asked: nothing left past the cutoff (or another purge has the rest).
      if (n < limit) break;
      if (!(await deps.store.jobRuns.renewLease(HOUSEKEEPING_JOB, o.owner, o.leaseTtlMs)))
        throw new Stop('aborted', 'the job lease was lost to another process');
    }
  }
}
