/**
 * The scheduler's planning: whether each job is due at a time, and when it is next due.
 * Read from the store (the last runs, by any process; the subscriptions and their time
 * zones) and the plan; nothing here runs a job.
 */

import { nextWeeklyAt, weeklySchedule } from '../../alerts/weekly-due.js';
import type { CurrentPlan } from '../../use-cases/current-polling-plan.js';
import type { PollJob } from '../../use-cases/job-names.js';
import { digestDueFor } from '../digest-job.js';
import { HOUSEKEEPING_JOB } from '../housekeeping-job.js';
import { intervalHoursOf, isPollDue } from '../job-schedule.js';
import { weeklyDueFor } from '../weekly-job.js';
import { quotaWaiting, type SchedulerContext } from './scheduler-context.js';

/** When the daily housekeeping is due: 03:30 UTC, a quiet hour in most time zones that use the bot. */
const HOUSEKEEPING_AT_MS = 3.5 * 3_600_000;

/** When `job` (any process's run of it) last started; null when it never ran. */
async function lastStarted(ctx: SchedulerContext, job: string): Promise<number | null> {
  return (await ctx.deps.store.jobRuns.recent(1, job))[0]?.startedAtMs ?? null;
}

/** A poll job is due when its slot under the plan began since its last run, or an outage stopped it. */
export async function pollJobIsDue(ctx: SchedulerContext, plan: CurrentPlan, job: PollJob): Promise<boolean> {
  if (ctx.state.interrupted.has(job)) return true;
  return isPollDue(
    await lastStarted(ctx, job),
    ctx.deps.clock.now(),
    intervalHoursOf(plan, job),
    plan.offsetsMs[job],
  );
}

/** The daily housekeeping is due when no run (by any process) started since today's slot. */
export async function housekeepingIsDue(ctx: SchedulerContext): Promise<boolean> {
  return isPollDue(await lastStarted(ctx, HOUSEKEEPING_JOB), ctx.deps.clock.now(), 24, HOUSEKEEPING_AT_MS);
}

/** Whether any subscription's digest is to be prepared (or sent) at `nowMs`. */
export async function digestIsDue(ctx: SchedulerContext, nowMs: number): Promise<boolean> {
  const { deps, settings } = ctx;
  const run = { nowMs, force: false, digestLeadMs: settings.digestLeadMs };
  return (await deps.store.subscriptions.listActive('digest')).some(
    (s) => digestDueFor(s, deps.config.defaultTimezone, run) !== null,
  );
}

/** Whether a subscription's weekly summary is due (read with the store's weekly state). */
export async function weeklyIsDue(ctx: SchedulerContext, nowMs: number): Promise<boolean> {
  const { deps } = ctx;
  if (quotaWaiting(ctx.state, nowMs)) return false;
  const run = { nowMs, force: false };
  for (const s of await deps.store.subscriptions.listActive())
    if (await weeklyDueFor({ levels: deps.store.channelDetectorState, deps }, s, run)) return true;
  return false;
}

/** The next weekly summary of any subscription that has it on; now when one is due. */
export async function nextWeekly(ctx: SchedulerContext, nowMs: number): Promise<number | null> {
  const { deps } = ctx;
  const subs = (await deps.store.subscriptions.listActive()).filter((s) => s.settings.weekly);
  if (subs.length === 0) return null;
  if (await weeklyIsDue(ctx, nowMs)) return nowMs;
  return Math.min(
    ...subs.map((s) => nextWeeklyAt(nowMs, weeklySchedule(s.settings, deps.config.defaultTimezone))),
  );
}
