import { isDatabaseUnavailable } from '../../store/database-unavailable.js';
import type { JobName } from '../../use-cases/job-names.js';
import type { JobSummary } from '../run-job-once.js';
import { runJobs } from '../run-jobs.js';
import type { SchedulerContext } from './scheduler-context.js';

/**
 * Runs one job as the scheduler does: on the background lane with a gap between brands,
 * not waiting for another process's lease (its next tick will do), delivering through the
 * scheduler's relay. What it learns is kept in the state: the job's summary, whether the
 * database stopped it (it is then due again once the database answers), and the quota
 * reset when the quota was found spent (no job starts before it). `publish` shows the job
 * running. Never rejects.
 */
export async function runScheduledJob(
  ctx: SchedulerContext,
  job: JobName,
  publish: () => Promise<void>,
): Promise<JobSummary | undefined> {
  const { state, logger } = ctx;
  state.current = job;
  await publish();
  try {
    const summary = await runJobs(ctx.deps, job, {
      owner: ctx.owner,
      force: false,
      leaseWaitMs: 0,
      brandGapMs: ctx.settings.brandGapMs,
      signal: ctx.stopSignal,
      deliver: ctx.relay,
      deliverWaitMs: 0,
      health: ctx.health,
      digestLeadMs: ctx.settings.digestLeadMs,
    });
    const s = summary.jobs[0];
    if (s) state.last.set(job, s);
    if (s?.status === 'database_unavailable') state.interrupted.add(job);
    else state.interrupted.delete(job);
    if (summary.quotaResetAt !== null) {
      state.quotaWaitUntil = summary.quotaResetAt;
      logger.warn(
        { resetAt: new Date(summary.quotaResetAt).toISOString() },
        'daily API quota spent: no job runs until it resets',
      );
    }
    return s;
  } catch (err) {
    if (isDatabaseUnavailable(err)) state.interrupted.add(job);
    else logger.error({ err, job }, 'scheduled job run failed');
    return undefined;
  } finally {
    state.current = null;
  }
}
