/**
 * Job bookkeeping: a row per run (for `status` and metrics), each brand's last success
 * (the citations job asks for a `days_back` covering the time since then), and a per-job
 * lease so `serve` and `run-job` never run the same job at the same time.
 */
import { type Clock, systemClock } from '../clock.js';
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

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
}

/**
 * A job_runs row as both backends return it; `ok` and `counts` differ in form (0/1 and
 * JSON text in SQLite, boolean and jsonb in Postgres) and are passed decoded.
 */
export interface JobRunRow {
  id: number;
  job: string;
  owner: string | null;
  started_at_ms: number;
  finished_at_ms: number | null;
  error: string | null;
}

export function jobRunFromRow(r: JobRunRow, ok: boolean | null, counts: JobCounts): JobRun {
  return {
    id: r.id,
    job: r.job,
    owner: r.owner,
    startedAtMs: r.started_at_ms,
    finishedAtMs: r.finished_at_ms,
    ok,
    error: r.error,
    counts,
  };
}

type RunRow = JobRunRow & { ok: number | null; counts: string };
const fromRow = (r: RunRow): JobRun =>
  jobRunFromRow(r, r.ok === null ? null : r.ok === 1, JSON.parse(r.counts) as JobCounts);

export function createJobRunsRepo(db: Db, clock: Clock = systemClock): JobRunsRepo {
  const insertRun = db.prepare('INSERT INTO job_runs (job, owner, started_at_ms) VALUES (?, ?, ?)');
  const finishRun = db.prepare(
    'UPDATE job_runs SET finished_at_ms = ?, ok = ?, error = ?, counts = ? WHERE id = ?',
  );
  const upsertBrand = db.prepare(
    `INSERT INTO job_brand_success (job, brand_id, last_success_ms) VALUES (?, ?, ?)
     ON CONFLICT (job, brand_id) DO UPDATE SET last_success_ms = MAX(last_success_ms, excluded.last_success_ms)`,
  );
  const lastJob = db.prepare('SELECT MAX(finished_at_ms) FROM job_runs WHERE job = ? AND ok = 1').pluck();
  const lastBrand = db
    .prepare('SELECT last_success_ms FROM job_brand_success WHERE job = ? AND brand_id = ?')
    .pluck();
  const allBrands = db.prepare('SELECT brand_id, last_success_ms FROM job_brand_success WHERE job = ?').raw();
  const recentAll = db.prepare('SELECT * FROM job_runs ORDER BY id DESC LIMIT ?');
  const recentJob = db.prepare('SELECT * FROM job_runs WHERE job = ? ORDER BY id DESC LIMIT ?');
  const streak = db
    .prepare(
      `SELECT COUNT(*) FROM job_runs WHERE job = ? AND ok = 0
         AND id > COALESCE((SELECT MAX(id) FROM job_runs WHERE job = ? AND ok = 1), 0)`,
    )
    .pluck();
  const acquire = db.prepare(
    `INSERT INTO job_leases (job, owner, acquired_at_ms, expires_at_ms) VALUES (@job, @owner, @now, @until)
     ON CONFLICT (job) DO UPDATE SET
       owner = excluded.owner,
       acquired_at_ms = CASE WHEN job_leases.owner = excluded.owner THEN job_leases.acquired_at_ms ELSE excluded.acquired_at_ms END,
       expires_at_ms = excluded.expires_at_ms
     WHERE job_leases.owner = excluded.owner OR job_leases.expires_at_ms <= @now`,
  );
  const renew = db.prepare(
    'UPDATE job_leases SET expires_at_ms = ? WHERE job = ? AND owner = ? AND expires_at_ms > ?',
  );
  const release = db.prepare('DELETE FROM job_leases WHERE job = ? AND owner = ?');
  const lease = db.prepare('SELECT * FROM job_leases WHERE job = ?');

  return asyncRepo<JobRunsRepo>(db, {
    start: (job, owner = null) => Number(insertRun.run(job, owner, clock.now()).lastInsertRowid),
    finish(runId, r) {
      finishRun.run(clock.now(), r.ok ? 1 : 0, r.error ?? null, JSON.stringify(r.counts ?? {}), runId);
    },
    recordBrandSuccess(job, brandId, atMs) {
      upsertBrand.run(job, brandId, atMs ?? clock.now());
    },
    lastSuccess(job, brandId) {
      const v = (brandId === undefined ? lastJob.get(job) : lastBrand.get(job, brandId)) as
        | number
        | null
        | undefined;
      return v ?? null;
    },
    lastSuccessByBrand: (job) => new Map(allBrands.all(job) as [string, number][]),
    recent: (limit, job) =>
      ((job === undefined ? recentAll.all(limit) : recentJob.all(job, limit)) as RunRow[]).map(fromRow),
    failureStreak: (job) => streak.get(job, job) as number,
    acquireLease(job, owner, ttlMs) {
      const now = clock.now();
      return acquire.run({ job, owner, now, until: now + ttlMs }).changes === 1;
    },
    renewLease(job, owner, ttlMs) {
      const now = clock.now();
      return renew.run(now + ttlMs, job, owner, now).changes === 1;
    },
    releaseLease: (job, owner) => release.run(job, owner).changes === 1,
    getLease(job) {
      const r = lease.get(job) as
        | { job: string; owner: string; acquired_at_ms: number; expires_at_ms: number }
        | undefined;
      return r
        ? { job: r.job, owner: r.owner, acquiredAtMs: r.acquired_at_ms, expiresAtMs: r.expires_at_ms }
        : null;
    },
  });
}
