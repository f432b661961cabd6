/**
 * One run of one job over its subscriptions, the part every job shares:
 * - the job's lease (never two processes on the same job), renewed as brands go by once a
 *   tenth of its time has passed since it was last taken or renewed;
 * - a job_runs row, and each brand's last success (the citations feed is sized from it);
 * - the API once per brand, a few brands in flight at once (`concurrency`) so the key's
 *   burst is not spent waiting on one brand's round trip at a time (the limiter still
 *   paces every call, background lane, FIFO), optionally a small gap between brands so a
 *   long run never crowds out people using /visibility;
 * - for a job that prepares its brands (`prepareBrand`), their writes committed several
 *   brands to a transaction (brand-batch.ts), each with its success record;
 * - errors: a spent quota or a rejected key stops the run and is the bot's own trouble
 *   (bot health → ops channel, once); a database that cannot be used stops it quietly
 *   (the outage is logged once where it is noticed, and the scheduler runs the job again
 *   once the database answers); any other error fails that brand only;
 * - a job that fails three runs in a row raises `job_failing:<job>`, cleared by a success.
 */

import type { BrandRef } from '../alerts/types.js';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { classifyJobError } from '../use-cases/classify-job-error.js';
import { addCounts, type EnqueueCounts, noCounts } from '../use-cases/enqueue-alerts.js';
import type { JobName } from '../use-cases/job-names.js';
import type { JobStatus } from '../use-cases/scheduler-snapshot.js';
import { acquireJobLease } from './acquire-job-lease.js';
import { BRANDS_PER_COMMIT, type BrandBatch, brandBatch } from './brand-batch.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition, JobRunInfo } from './job-definition.js';

export interface JobSummary extends EnqueueCounts {
  job: JobName;
  status: JobStatus;
  /** Brands the run was to serve (each called once), and how they went. */
  brands: number;
  succeeded: number;
  failed: number;
  durationMs: number;
  /** Why it was skipped or stopped, or the last brand error. */
  detail: string | null;
  /** Set when the daily quota is spent: when it resets (epoch ms). */
  quotaResetAt: number | null;
}

export interface RunJobOnceOptions {
  owner: string;
  force: boolean;
  leaseWaitMs: number;
  leaseTtlMs: number;
  brandGapMs: number;
  /** Brands in flight at once; default BRAND_CONCURRENCY (1 with a brand gap). */
  concurrency?: number;
  /** See JobRunInfo.digestLeadMs. */
  digestLeadMs?: number;
  /**
   * Called once, as soon as a brand of this run went through (the key and the quota are
   * fine): `runJobs` starts the other polls then (or when this run is over), so a rejected
   * key or a spent quota costs one call, not one per job.
   */
  onHealthy?: () => void;
}

/**
 * Brands in flight at once. A brand's run is one or two calls plus a short transaction;
 * four overlap the round trips enough to keep up with a fresh bucket's burst, while the
 * detection transactions (synchronous SQLite) still run one at a time.
 */
export const BRAND_CONCURRENCY = 4;

/**
 * The lease is renewed before a brand once this share of its time has passed since it was
 * taken or last renewed, not before every brand (a statement per brand, 3,000 in a run of
 * the three alert jobs over 1,000 brands). Safe alike: another process can take the lease
 * only once it has expired, and before each brand at least nine tenths of it are left, by
 * the clock that renews it; a stall longer than that is noticed at the next brand.
 */
const RENEW_AFTER_SHARE = 0.1;

/** Runs a job fails in a row before `job_failing:<job>` is raised (docs/alert-semantics.md: jobs failing). */
const FAILING_STREAK = 3;

function byBrand(subs: readonly Subscription[]): { brand: BrandRef; subs: Subscription[] }[] {
  const groups = new Map<string, { brand: BrandRef; subs: Subscription[] }>();
  for (const s of subs) {
    const g = groups.get(s.brandId);
    if (g) g.subs.push(s);
    else groups.set(s.brandId, { brand: { id: s.brandId, name: s.brandName }, subs: [s] });
  }
  return [...groups.values()];
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

const DATABASE_DOWN =
  'the database could not be used, so the run stopped (serve runs it again once the database answers)';

/** Rethrows anything but an outage of the database (the run's own bookkeeping, best effort then). */
const unlessDatabaseDown = (err: unknown): void => {
  if (!isDatabaseUnavailable(err)) throw err;
};

export async function runJobOnce(
  ctx: JobContext,
  def: JobDefinition,
  o: RunJobOnceOptions,
): Promise<JobSummary> {
  const { clock, jobRuns } = ctx;
  const logger = ctx.logger.child({ job: def.name });
  const started = clock.now();
  const summary: JobSummary = {
    job: def.name,
    status: 'ok',
    brands: 0,
    succeeded: 0,
    failed: 0,
    ...noCounts(),
    durationMs: 0,
    detail: null,
    quotaResetAt: null,
  };
  const done = () => {
    summary.durationMs = clock.now() - started;
    return summary;
  };

  const runId = await startRun(ctx, def, o, logger, summary);
  if (runId === null) return done();
  try {
    await runBrands({
      ctx,
      def,
      o,
      logger,
      summary,
      work: [],
      next: 0,
      stopped: false,
      healthy: false,
      // Taken after `started`: counted from before, the lease is renewed no later than it must be.
      leaseAtMs: started,
    });
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      summary.status = 'database_unavailable';
      summary.detail = DATABASE_DOWN;
    } else {
      // Not an API answer: a database or programming error. Recorded and counted like any failure.
      summary.status = 'failed';
      summary.detail = message(err);
      logger.error({ err }, 'job run failed');
    }
  } finally {
    // Left held when the database is down: it expires, and this owner takes it again at once.
    await jobRuns.releaseLease(def.name, o.owner).catch(unlessDatabaseDown);
  }
  await recordRun(ctx, def, runId, summary).catch((err: unknown) => {
    unlessDatabaseDown(err);
    logger.debug('the run could not be recorded: the database cannot be used');
  });
  // The logger's binding already names the job.
  const { job: _job, ...fields } = summary;
  logger.info(fields, `${def.name} job ${summary.status}`);
  return done();
}

/**
 * Takes the job's lease and opens its job_runs row; the row's id, or null when the run
 * does not start (another process holds the lease, or the database cannot be used), with
 * `summary` saying why.
 */
async function startRun(
  ctx: JobContext,
  def: JobDefinition,
  o: RunJobOnceOptions,
  logger: Logger,
  summary: JobSummary,
): Promise<number | null> {
  const { jobRuns } = ctx;
  try {
    const lease = await acquireJobLease(jobRuns, def.name, o.owner, {
      ttlMs: o.leaseTtlMs,
      waitMs: o.leaseWaitMs,
      clock: ctx.clock,
      signal: ctx.signal,
    });
    if (lease.ok) return await jobRuns.start(def.name, o.owner);
    summary.status = 'skipped';
    summary.detail = `another process is running it (${lease.holder ?? 'unknown'})`;
    logger.info({ holder: lease.holder }, 'job skipped: another process is running it');
    return null;
  } catch (err) {
    unlessDatabaseDown(err);
    summary.status = 'database_unavailable';
    summary.detail = DATABASE_DOWN;
    logger.debug('job not started: the database cannot be used');
    return null;
  }
}

/** One run's progress through its brands, shared by its workers. */
interface BrandRun {
  ctx: JobContext;
  def: JobDefinition;
  o: RunJobOnceOptions;
  logger: Logger;
  summary: JobSummary;
  work: { brand: BrandRef; subs: Subscription[] }[];
  /** Index of the next brand a worker takes. */
  next: number;
  /** Set when the run must stop: no worker starts another brand. */
  stopped: boolean;
  /** A call went through: the key and the quota are fine. */
  healthy: boolean;
  /** A job that prepares its brands commits their writes several to a transaction. */
  batch?: BrandBatch | null;
  /** When the lease was last taken or renewed (before the statement, by the run's clock). */
  leaseAtMs: number;
}

/** Every brand of the run, a few in flight once a call went through; outcomes go to `run.summary`. */
async function runBrands(run: BrandRun): Promise<void> {
  const { ctx, def, o, summary } = run;
  run.work = byBrand(await def.select(ctx, runInfo(run)));
  summary.brands = run.work.length;
  // Nothing subscribed to this job: no batch to make, no worker to start.
  if (run.work.length === 0) return;
  run.batch = def.prepareBrand
    ? brandBatch({
        transaction: ctx.store.transaction,
        outbox: ctx.outbox,
        recordSuccesses: (brandIds) => ctx.jobRuns.recordBrandSuccesses(def.name, brandIds),
        levels: ctx.levels,
        snoozes: ctx.snoozes,
        citationStates: ctx.citationState,
        writeRows: async (rows) => {
          await ctx.observations.putMany(rows.observations);
          await ctx.levels.putLevels(rows.levels);
          await ctx.store.crawlerHistory.writeMany(rows.histories);
          await ctx.citationState.saveMany(rows.citationStates);
        },
        committed: (_brand, counts) => {
          addCounts(summary, counts);
          summary.succeeded += 1;
        },
        failed: (brand, err) => brandFailed(run, brand, err),
        size: def.brandsPerCommit ?? BRANDS_PER_COMMIT[ctx.store.backend],
      })
    : null;
  // One brand at a time until a call goes through: a spent quota or a rejected key then
  // stops the run after one call, not after one per worker.
  while (!run.stopped && !run.healthy && run.next < run.work.length) await runNext(run);
  const width = o.brandGapMs > 0 ? 1 : Math.max(1, o.concurrency ?? BRAND_CONCURRENCY);
  const worker = async () => {
    while (!run.stopped && run.next < run.work.length) await runNext(run);
  };
  await Promise.all(Array.from({ length: Math.min(width, run.work.length - run.next) }, worker));
  // The last brands' writes, whatever stopped the run: their calls were made.
  await run.batch?.flush().catch((err: unknown) => {
    unlessDatabaseDown(err);
    stopRun(run, 'database_unavailable', DATABASE_DOWN);
  });
  if (summary.status === 'ok' && summary.brands > 0 && summary.succeeded === 0) summary.status = 'failed';
}

const runInfo = (run: BrandRun): JobRunInfo => ({
  nowMs: run.ctx.clock.now(),
  force: run.o.force,
  digestLeadMs: run.o.digestLeadMs ?? 0,
});

function stopRun(run: BrandRun, status: JobStatus, detail?: string): void {
  if (run.stopped) return;
  run.stopped = true;
  run.summary.status = status;
  if (detail !== undefined) run.summary.detail = detail;
}

function brandFailed(run: BrandRun, brand: BrandRef, err: unknown): void {
  run.summary.failed += 1;
  run.summary.detail = `${brand.name}: ${message(err)}`;
  run.logger.warn({ err, brandId: brand.id }, 'job failed for one brand; going on with the next');
}

/** A call went through: whatever was wrong with the key or the quota is over. */
async function wentThrough(run: BrandRun): Promise<void> {
  if (run.healthy) return;
  await run.ctx.health.clear('key_rejected');
  await run.ctx.health.clear('quota_spent');
  run.healthy = true;
  run.o.onHealthy?.();
}

/** The next brand: after the gap, with the lease renewed; stops the run when it cannot go on. */
async function runNext(run: BrandRun): Promise<void> {
  const { ctx, def, o } = run;
  const i = run.next++;
  const { brand, subs } = run.work[i]!;
  if (ctx.signal?.aborted) return stopRun(run, 'aborted');
  if (i > 0 && o.brandGapMs > 0) await ctx.clock.sleep(o.brandGapMs, ctx.signal).catch(() => {});
  let renewed = true;
  const now = ctx.clock.now();
  if (now - run.leaseAtMs >= o.leaseTtlMs * RENEW_AFTER_SHARE) {
    try {
      renewed = await ctx.jobRuns.renewLease(def.name, o.owner, o.leaseTtlMs);
      run.leaseAtMs = now;
    } catch (err) {
      unlessDatabaseDown(err);
      return stopRun(run, 'database_unavailable', DATABASE_DOWN);
    }
  }
  if (!renewed) {
    // Expired and taken: the other process carries on from the stored state.
    run.logger.warn('job lease lost; stopping this run');
    return stopRun(run, 'aborted', 'the job lease was lost to another process');
  }
  try {
    if (def.prepareBrand) {
      const write = await def.prepareBrand(ctx, brand, subs, runInfo(run));
      await wentThrough(run);
      await run.batch!.add(brand, write);
    } else {
      addCounts(run.summary, await def.runBrand(ctx, brand, subs, runInfo(run)));
      await ctx.jobRuns.recordBrandSuccess(def.name, brand.id);
      run.summary.succeeded += 1;
      await wentThrough(run);
    }
  } catch (err) {
    await brandError(run, brand, err);
  }
}

/**
 * A brand's call or write failed: a spent quota or a rejected key stops the run and is
 * raised once (the bot's own trouble), so do a shutdown and a database outage; anything
 * else fails that brand only.
 */
async function brandError(run: BrandRun, brand: BrandRef, err: unknown): Promise<void> {
  const { def, ctx } = run;
  const e = classifyJobError(err);
  if (e.kind === 'quota_spent') {
    const resetAt = new Date(e.resetAt).toISOString();
    if (!run.stopped) {
      run.summary.quotaResetAt = e.resetAt;
      await ctx.health.raise('quota_spent', `The ${def.name} job stopped; it resets at ${resetAt}.`);
    }
    return stopRun(run, 'quota_spent', `the API key's daily quota is spent; it resets at ${resetAt}`);
  }
  if (e.kind === 'key_rejected') {
    if (!run.stopped)
      await ctx.health.raise('key_rejected', `The ${def.name} job was refused: ${message(err)}`);
    return stopRun(run, 'key_rejected', `the API key was rejected: ${message(err)}`);
  }
  if (e.kind === 'aborted') return stopRun(run, 'aborted');
  if (e.kind === 'database_unavailable') return stopRun(run, 'database_unavailable', DATABASE_DOWN);
  if (e.kind === 'api_unreachable') {
    run.logger.warn({ err, brandId: brand.id }, 'the service could not be reached; stopping this run');
    return stopRun(run, 'failed', `${message(err)} The next run tries again.`);
  }
  brandFailed(run, brand, err);
}

/** The run's job_runs row, and the job_failing flag its streak raises or clears. */
async function recordRun(
  ctx: JobContext,
  def: JobDefinition,
  runId: number,
  summary: JobSummary,
): Promise<void> {
  const { jobRuns, health } = ctx;
  const ok = summary.status === 'ok';
  const failing = `job_failing:${def.name}` as const;
  await jobRuns.finish(runId, {
    ok,
    error: ok ? null : `${summary.status}${summary.detail ? `: ${summary.detail}` : ''}`,
    counts: {
      brands: summary.brands,
      succeeded: summary.succeeded,
      failed: summary.failed,
      alerts: summary.alerts,
      messages: summary.messages,
    },
  });
  if (ok) await health.clear(failing);
  // A spent quota, a rejected key or the database have their own reports, and a shutdown is no failure.
  else if (summary.status === 'failed' && (await jobRuns.failureStreak(def.name)) >= FAILING_STREAK) {
    await health.raise(
      failing,
      `${FAILING_STREAK} runs in a row failed; last: ${summary.detail ?? 'unknown'}`,
    );
  }
}
