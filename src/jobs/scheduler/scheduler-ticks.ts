/**
 * The scheduler's ticks: what the polling tick and the digest tick do once it is their
 * turn (scheduler.ts queues them). Planning is in due-jobs.ts; running a job in
 * run-scheduled-job.ts.
 */
import { POLL_JOBS } from '../../use-cases/job-names.js';
import { runHousekeeping } from '../housekeeping-job.js';
import { digestIsDue, housekeepingIsDue, pollJobIsDue, weeklyIsDue } from './due-jobs.js';
import { replan } from './replan.js';
import { runScheduledJob } from './run-scheduled-job.js';
import { quotaWaiting, type SchedulerContext } from './scheduler-context.js';

/** Its lease lasts this long between batches (each batch takes milliseconds). */
const HOUSEKEEPING_LEASE_MS = 10 * 60_000;

/** The polling tick: the poll jobs that are due, then the daily housekeeping if it is. */
export async function pollTickOnce(ctx: SchedulerContext, publish: () => Promise<void>): Promise<void> {
  await runDuePolls(ctx, publish);
  await housekeepIfDue(ctx);
}

/**
 * Runs the poll jobs that are due, in order, with the plan read afresh; none while the
 * quota is spent or nothing is subscribed.
 */
async function runDuePolls(ctx: SchedulerContext, publish: () => Promise<void>): Promise<void> {
  const { state, stopSignal } = ctx;
  const { clock, store } = ctx.deps;
  if (quotaWaiting(state, clock.now())) return;
  const plan = await replan(ctx);
  if ((await store.subscriptions.activeBrandIds('alerts')).length === 0) return;
  for (const job of POLL_JOBS) {
    if (stopSignal.aborted || quotaWaiting(state, clock.now())) return;
    if (!(await pollJobIsDue(ctx, plan, job))) continue;
    const s = await runScheduledJob(ctx, job, publish);
    // The key is rejected (or the database gone): the other jobs would be refused too.
    if (s?.status === 'key_rejected' || state.interrupted.has(job)) return;
  }
}

/**
 * The daily housekeeping, when no run (by any process) started since today's slot,
 * whether or not anything is subscribed. It calls no API, so a spent quota does not hold
 * it back.
 */
async function housekeepIfDue(ctx: SchedulerContext): Promise<void> {
  if (!ctx.settings.housekeeping || ctx.stopSignal.aborted) return;
  if (!(await housekeepingIsDue(ctx))) return;
  await runHousekeeping(ctx.deps, {
    owner: ctx.owner,
    leaseWaitMs: 0,
    leaseTtlMs: HOUSEKEEPING_LEASE_MS,
    signal: ctx.stopSignal,
  });
}

/** The digest tick: the digests due (prepared ahead or due now), then the weekly summaries due. */
export async function digestTickOnce(ctx: SchedulerContext, publish: () => Promise<void>): Promise<void> {
  const { clock } = ctx.deps;
  const now = clock.now();
  if (quotaWaiting(ctx.state, now)) return;
  if (await digestIsDue(ctx, now)) await runScheduledJob(ctx, 'digest', publish);
  if (await weeklyIsDue(ctx, clock.now())) await runScheduledJob(ctx, 'weekly', publish);
}
