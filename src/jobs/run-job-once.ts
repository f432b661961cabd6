/**
 * One run of one job over its subscriptions, the part every job shares:
 * - the job's lease (never two processes on the same job), renewed as brands go by;
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

import { classifyJobError } from '../alerting/classify-job-error.js';
import { addCounts, type EnqueueCounts, noCounts } from '../alerting/enqueue-alerts.js';
import type { JobName } from '../alerting/job-names.js';
import type { JobStatus } from '../alerting/scheduler-snapshot.js';
import type { BrandRef } from '../alerts/types.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { acquireJobLease } from './acquire-job-lease.js';
import { type BrandBatch, brandBatch } from './brand-batch.js';
import type { JobContext } from './job-context.js';
import type { JobDefinition } from './job-definition.js';

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

/** Runs a job fails in a row before `job_failing:<job>` is raised (docs/alert-semantics.md: jobs failing). */
export const FAILING_STREAK = 3;

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
  const { clock, jobRuns, health } = ctx;
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

  let lease: Awaited<ReturnType<typeof acquireJobLease>>;
  let runId: number;
  try {
    lease = await acquireJobLease(jobRuns, def.name, o.owner, {
      ttlMs: o.leaseTtlMs,
      waitMs: o.leaseWaitMs,
      clock,
      signal: ctx.signal,
    });
    runId = lease.ok ? await jobRuns.start(def.name, o.owner) : 0;
  } catch (err) {
    unlessDatabaseDown(err);
    summary.status = 'database_unavailable';
    summary.detail = DATABASE_DOWN;
    logger.debug('job not started: the database cannot be used');
    return done();
  }
  if (!lease.ok) {
    summary.status = 'skipped';
    summary.detail = `another process is running it (${lease.holder ?? 'unknown'})`;
    logger.info({ holder: lease.holder }, 'job skipped: another process is running it');
    return done();
  }

  try {
    const force = o.force;
    const runInfo = () => ({ nowMs: clock.now(), force, digestLeadMs: o.digestLeadMs ?? 0 });
    const work = byBrand(await def.select(ctx, runInfo()));
    summary.brands = work.length;
    let healthy = false;
    let next = 0;
    /** Set when the run must stop: no worker starts another brand. */
    let stopped = false;
    const stop = (status: JobStatus, detail?: string) => {
      if (stopped) return;
      stopped = true;
      summary.status = status;
      if (detail !== undefined) summary.detail = detail;
    };
    const brandFailed = (brand: BrandRef, err: unknown) => {
      summary.failed += 1;
      summary.detail = `${brand.name}: ${message(err)}`;
      logger.warn({ err, brandId: brand.id }, 'job failed for one brand; going on with the next');
    };
    const batch: BrandBatch | null = def.prepareBrand
      ? brandBatch({
          transaction: ctx.store.transaction,
          recordSuccess: (brandId) => jobRuns.recordBrandSuccess(def.name, brandId),
          committed: (_brand, counts) => {
            addCounts(summary, counts);
            summary.succeeded += 1;
          },
          failed: brandFailed,
        })
      : null;
    /** A call went through: whatever was wrong with the key or the quota is over. */
    const wentThrough = async () => {
      if (healthy) return;
      await health.clear('key_rejected');
      await health.clear('quota_spent');
      healthy = true;
      o.onHealthy?.();
    };
    const runNext = async (): Promise<void> => {
      const i = next++;
      const { brand, subs } = work[i]!;
      if (ctx.signal?.aborted) return stop('aborted');
      if (i > 0 && o.brandGapMs > 0) await clock.sleep(o.brandGapMs, ctx.signal).catch(() => {});
      let renewed: boolean;
      try {
        renewed = await jobRuns.renewLease(def.name, o.owner, o.leaseTtlMs);
      } catch (err) {
        unlessDatabaseDown(err);
        return stop('database_unavailable', DATABASE_DOWN);
      }
      if (!renewed) {
        // Expired and taken: the other process carries on from the stored state.
        logger.warn('job lease lost; stopping this run');
        return stop('aborted', 'the job lease was lost to another process');
      }
      try {
        if (def.prepareBrand) {
          const write = await def.prepareBrand(ctx, brand, subs, runInfo());
          await wentThrough();
          await batch!.add(brand, write);
        } else {
          addCounts(summary, await def.runBrand(ctx, brand, subs, runInfo()));
          await jobRuns.recordBrandSuccess(def.name, brand.id);
          summary.succeeded += 1;
          await wentThrough();
        }
      } catch (err) {
        const e = classifyJobError(err);
        if (e.kind === 'quota_spent') {
          if (!stopped) {
            summary.quotaResetAt = e.resetAt;
            await health.raise(
              'quota_spent',
              `The ${def.name} job stopped; it resets at ${new Date(e.resetAt).toISOString()}.`,
            );
          }
          return stop(
            'quota_spent',
            `the API key's daily quota is spent; it resets at ${new Date(e.resetAt).toISOString()}`,
          );
        }
        if (e.kind === 'key_rejected') {
          if (!stopped)
            await health.raise('key_rejected', `The ${def.name} job was refused: ${message(err)}`);
          return stop('key_rejected', `the API key was rejected: ${message(err)}`);
        }
        if (e.kind === 'aborted') return stop('aborted');
        if (e.kind === 'database_unavailable') return stop('database_unavailable', DATABASE_DOWN);
        brandFailed(brand, err);
      }
    };
    // One brand at a time until a call goes through: a spent quota or a rejected key then
    // stops the run after one call, not after one per worker.
    while (!stopped && !healthy && next < work.length) await runNext();
    const width = o.brandGapMs > 0 ? 1 : Math.max(1, o.concurrency ?? BRAND_CONCURRENCY);
    const worker = async () => {
      while (!stopped && next < work.length) await runNext();
    };
    await Promise.all(Array.from({ length: Math.min(width, work.length - next) }, worker));
    // The last brands' writes, whatever stopped the run: their calls were made.
    await batch?.flush().catch((err: unknown) => {
      unlessDatabaseDown(err);
      stop('database_unavailable', DATABASE_DOWN);
    });
    if (summary.status === 'ok' && summary.brands > 0 && summary.succeeded === 0) summary.status = 'failed';
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
