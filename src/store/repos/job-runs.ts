/**
 * JobRunsRepo (job-runs-repo.ts has the contract), for both backends, stamped with the
 * store's clock. The lease is one INSERT … ON CONFLICT … DO UPDATE … WHERE: the
 * conflicting row is locked while the condition decides, so of several processes asking
 * for the same job at once exactly one gets the lease, and the others see it taken.
 */
import type { Insertable, Kysely } from 'kysely';
import { type Database, isSet, type Row } from '../database.js';
import type { JobCounts, JobLease, JobRun, JobRunsRepo } from '../job-runs-repo.js';
import { count, type RepoContext } from '../repo-context.js';

const fromRow = (r: Row<'job_runs'>): JobRun => ({
  id: r.id,
  job: r.job,
  owner: r.owner,
  startedAtMs: r.started_at_ms,
  finishedAtMs: r.finished_at_ms,
  ok: r.ok === null ? null : isSet(r.ok),
  error: r.error,
  counts: JSON.parse(r.counts) as JobCounts,
});

const leaseFromRow = (r: Row<'job_leases'>): JobLease => ({
  job: r.job,
  owner: r.owner,
  acquiredAtMs: r.acquired_at_ms,
  expiresAtMs: r.expires_at_ms,
});

// Long by design: one short method per query of the job_runs table (runs, brand progress, leases); each reads alone.
export function createJobRunsRepo(ctx: RepoContext): JobRunsRepo {
  const { clock } = ctx;
  const runs = () => ctx.db().selectFrom('job_runs');
  // A job reads and records each brand's success, and renews its lease, once per brand.
  const brandSuccess = ctx.prepare((db, job: string, brandId: string) =>
    db
      .selectFrom('job_brand_success')
      .select('last_success_ms')
      .where('job', '=', job)
      .where('brand_id', '=', brandId),
  );
  // A success never moves a brand's last success back.
  const insertSuccesses = (db: Kysely<Database>, rows: Insertable<Database['job_brand_success']>[]) =>
    db
      .insertInto('job_brand_success')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['job', 'brand_id']).doUpdateSet((eb) => ({
          last_success_ms: ctx.sql.greatest(
            eb.ref('job_brand_success.last_success_ms'),
            eb.ref('excluded.last_success_ms'),
          ),
        })),
      );
  const recordSuccess = ctx.prepare((db, job: string, brandId: string, atMs: number) =>
    insertSuccesses(db, [{ job, brand_id: brandId, last_success_ms: atMs }]),
  );
  // Every run of every job (run-job all: five a pass) opens and closes a run row and takes
  // and gives back its lease.
  const startRun = ctx.prepare((db, job: string, owner: string | null, nowMs: number) =>
    db.insertInto('job_runs').values({ job, owner, started_at_ms: nowMs }).returning('id'),
  );
  const finishRun = ctx.prepare(
    (db, runId: number, nowMs: number, ok: boolean, error: string | null, counts: string) =>
      db.updateTable('job_runs').set({ finished_at_ms: nowMs, ok, error, counts }).where('id', '=', runId),
  );
  // Renewing our own lease keeps when we first took it.
  const acquire = ctx.prepare((db, job: string, owner: string, nowMs: number, untilMs: number) =>
    db
      .insertInto('job_leases')
      .values({ job, owner, acquired_at_ms: nowMs, expires_at_ms: untilMs })
      .onConflict((oc) =>
        oc
          .column('job')
          .doUpdateSet((eb) => ({
            owner: eb.ref('excluded.owner'),
            acquired_at_ms: eb
              .case()
              .when('job_leases.owner', '=', eb.ref('excluded.owner'))
              .then(eb.ref('job_leases.acquired_at_ms'))
              .else(eb.ref('excluded.acquired_at_ms'))
              .end(),
            expires_at_ms: eb.ref('excluded.expires_at_ms'),
          }))
          .where((eb) =>
            eb.or([
              eb('job_leases.owner', '=', eb.ref('excluded.owner')),
              eb('job_leases.expires_at_ms', '<=', nowMs),
            ]),
          ),
      ),
  );
  const release = ctx.prepare((db, job: string, owner: string) =>
    db.deleteFrom('job_leases').where('job', '=', job).where('owner', '=', owner),
  );
  const renew = ctx.prepare((db, job: string, owner: string, nowMs: number, untilMs: number) =>
    db
      .updateTable('job_leases')
      .set({ expires_at_ms: untilMs })
      .where('job', '=', job)
      .where('owner', '=', owner)
      .where('expires_at_ms', '>', nowMs),
  );
  return {
    async start(job, owner = null) {
      const [row] = (await startRun(job, owner, clock.now())).rows;
      if (!row) throw new Error(`No job_runs row was written for ${job}.`);
      return row.id;
    },
    async finish(runId, r) {
      await finishRun(runId, clock.now(), r.ok, r.error ?? null, ctx.sql.json(r.counts ?? {}));
    },
    async recordBrandSuccess(job, brandId, atMs) {
      await recordSuccess(job, brandId, atMs ?? clock.now());
    },
    async recordBrandSuccesses(job, brandIds, atMs) {
      // Once each: Postgres refuses a statement that updates one row twice.
      const ids = [...new Set(brandIds)];
      if (ids.length === 0) return;
      const at = atMs ?? clock.now();
      await insertSuccesses(
        ctx.db(),
        ids.map((brandId) => ({ job, brand_id: brandId, last_success_ms: at })),
      ).execute();
    },
    async lastSuccess(job, brandId) {
      if (brandId !== undefined) return (await brandSuccess(job, brandId)).rows[0]?.last_success_ms ?? null;
      const r = await runs()
        .select((eb) => eb.fn.max('finished_at_ms').as('ms'))
        .where('job', '=', job)
        .where('ok', '=', true)
        .executeTakeFirst();
      return r?.ms == null ? null : Number(r.ms);
    },
    async lastSuccessByBrand(job) {
      const rows = await ctx
        .db()
        .selectFrom('job_brand_success')
        .select(['brand_id', 'last_success_ms'])
        .where('job', '=', job)
        .execute();
      return new Map(rows.map((r) => [r.brand_id, r.last_success_ms]));
    },
    async recent(limit, job) {
      let q = runs().selectAll();
      if (job !== undefined) q = q.where('job', '=', job);
      return (await q.orderBy('id', 'desc').limit(limit).execute()).map(fromRow);
    },
    async failureStreak(job) {
      const lastOk = runs()
        .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('id'))
        .where('job', '=', job)
        .where('ok', '=', true);
      const r = await runs()
        .select((eb) => eb.fn.countAll().as('n'))
        .where('job', '=', job)
        .where('ok', '=', false)
        .where('id', '>', lastOk)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async acquireLease(job, owner, ttlMs) {
      const now = clock.now();
      return count((await acquire(job, owner, now, now + ttlMs)).numAffectedRows) === 1;
    },
    async renewLease(job, owner, ttlMs) {
      const now = clock.now();
      return count((await renew(job, owner, now, now + ttlMs)).numAffectedRows) === 1;
    },
    async releaseLease(job, owner) {
      return count((await release(job, owner)).numAffectedRows) === 1;
    },
    async purgeStartedBefore(cutoffMs, limit) {
      const db = ctx.db();
      const newest = db
        .selectFrom('job_runs')
        .select((eb) => eb.fn.max('id').as('id'))
        .groupBy('job');
      const old = db
        .selectFrom('job_runs')
        .select('id')
        .where('started_at_ms', '<', cutoffMs)
        .where('id', 'not in', newest)
        .orderBy('id')
        .limit(limit);
      const r = await db
        .deleteFrom('job_runs')
        .where('id', 'in', ctx.sql.lockRowsSkipLocked(old))
        .executeTakeFirst();
      return count(r.numDeletedRows);
    },
    async getLease(job) {
      const r = await ctx.db().selectFrom('job_leases').selectAll().where('job', '=', job).executeTakeFirst();
      return r ? leaseFromRow(r) : null;
    },
  };
}
