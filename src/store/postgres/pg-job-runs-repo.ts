/**
 * JobRunsRepo on Postgres (job-runs-repo.ts has the contract). The lease is one
 * INSERT … ON CONFLICT … DO UPDATE … WHERE: the conflicting row is locked while the WHERE
 * decides, so of several replicas asking for the same job at once exactly one gets a row
 * back, and the others wait for its commit and then see the lease taken.
 */
import { type Clock, systemClock } from '../../clock.js';
import {
  type JobCounts,
  type JobLease,
  type JobRun,
  type JobRunRow,
  type JobRunsRepo,
  jobRunFromRow,
} from '../job-runs-repo.js';
import type { PgPool } from './create-pool.js';
import { pgJson, pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

type RunRow = JobRunRow & { ok: boolean | null; counts: JobCounts };

interface LeaseRow {
  job: string;
  owner: string;
  acquired_at_ms: number;
  expires_at_ms: number;
}

const fromRow = (r: RunRow): JobRun => jobRunFromRow(r, r.ok, r.counts);

export function createPgJobRunsRepo(pool: PgPool, clock: Clock = systemClock): JobRunsRepo {
  const db = () => pgExecutor(pool);
  return {
    async start(job, owner = null) {
      const { rows } = await db().query<{ id: number }>(
        'INSERT INTO job_runs (job, owner, started_at_ms) VALUES ($1, $2, $3) RETURNING id',
        [pgText(job), pgText(owner), clock.now()],
      );
      return rows[0]!.id;
    },
    async finish(runId, r) {
      await db().query(
        'UPDATE job_runs SET finished_at_ms = $1, ok = $2, error = $3, counts = $4::jsonb WHERE id = $5',
        [clock.now(), r.ok, pgText(r.error ?? null), pgJson(r.counts ?? {}), runId],
      );
    },
    async recordBrandSuccess(job, brandId, atMs) {
      await db().query(
        `INSERT INTO job_brand_success (job, brand_id, last_success_ms) VALUES ($1, $2, $3)
         ON CONFLICT (job, brand_id) DO UPDATE
           SET last_success_ms = GREATEST(job_brand_success.last_success_ms, EXCLUDED.last_success_ms)`,
        [pgText(job), pgText(brandId), atMs ?? clock.now()],
      );
    },
    async lastSuccess(job, brandId) {
      const { rows } =
        brandId === undefined
          ? await db().query<{ ms: number | null }>(
              'SELECT MAX(finished_at_ms) AS ms FROM job_runs WHERE job = $1 AND ok',
              [pgText(job)],
            )
          : await db().query<{ ms: number | null }>(
              'SELECT last_success_ms AS ms FROM job_brand_success WHERE job = $1 AND brand_id = $2',
              [pgText(job), pgText(brandId)],
            );
      return rows[0]?.ms ?? null;
    },
    async lastSuccessByBrand(job) {
      const { rows } = await db().query<{ brand_id: string; last_success_ms: number }>(
        'SELECT brand_id, last_success_ms FROM job_brand_success WHERE job = $1',
        [pgText(job)],
      );
      return new Map(rows.map((r) => [r.brand_id, r.last_success_ms]));
    },
    async recent(limit, job) {
      const { rows } =
        job === undefined
          ? await db().query<RunRow>('SELECT * FROM job_runs ORDER BY id DESC LIMIT $1', [limit])
          : await db().query<RunRow>('SELECT * FROM job_runs WHERE job = $1 ORDER BY id DESC LIMIT $2', [
              pgText(job),
              limit,
            ]);
      return rows.map(fromRow);
    },
    async failureStreak(job) {
      const { rows } = await db().query<{ n: number }>(
        `SELECT COUNT(*)::integer AS n FROM job_runs WHERE job = $1 AND ok = false
           AND id > COALESCE((SELECT MAX(id) FROM job_runs WHERE job = $1 AND ok), 0)`,
        [pgText(job)],
      );
      return rows[0]!.n;
    },
    async acquireLease(job, owner, ttlMs) {
      const now = clock.now();
      const { rowCount } = await db().query(
        `INSERT INTO job_leases (job, owner, acquired_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (job) DO UPDATE SET
           owner = EXCLUDED.owner,
           acquired_at_ms = CASE WHEN job_leases.owner = EXCLUDED.owner
             THEN job_leases.acquired_at_ms ELSE EXCLUDED.acquired_at_ms END,
           expires_at_ms = EXCLUDED.expires_at_ms
         WHERE job_leases.owner = EXCLUDED.owner OR job_leases.expires_at_ms <= $3`,
        [pgText(job), pgText(owner), now, now + ttlMs],
      );
      return rowCount === 1;
    },
    async renewLease(job, owner, ttlMs) {
      const now = clock.now();
      const { rowCount } = await db().query(
        'UPDATE job_leases SET expires_at_ms = $1 WHERE job = $2 AND owner = $3 AND expires_at_ms > $4',
        [now + ttlMs, pgText(job), pgText(owner), now],
      );
      return rowCount === 1;
    },
    async releaseLease(job, owner) {
      const { rowCount } = await db().query('DELETE FROM job_leases WHERE job = $1 AND owner = $2', [
        pgText(job),
        pgText(owner),
      ]);
      return rowCount === 1;
    },
    async getLease(job): Promise<JobLease | null> {
      const { rows } = await db().query<LeaseRow>('SELECT * FROM job_leases WHERE job = $1', [pgText(job)]);
      const r = rows[0];
      return r
        ? { job: r.job, owner: r.owner, acquiredAtMs: r.acquired_at_ms, expiresAtMs: r.expires_at_ms }
        : null;
    },
  };
}
