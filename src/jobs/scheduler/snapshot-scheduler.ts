import type { CurrentPlan } from '../../use-cases/current-polling-plan.js';
import { JOB_NAMES, type JobName } from '../../use-cases/job-names.js';
import type { SchedulerJobState, SchedulerSnapshot } from '../../use-cases/scheduler-snapshot.js';
import { intervalHoursOf, nextDigestAt, nextPollAt } from '../job-schedule.js';
import { nextWeekly } from './due-jobs.js';
import { replan } from './replan.js';
import type { SchedulerContext } from './scheduler-context.js';

/** The scheduler's state as /healthz and `status` show it: the plan, the quota wait, each job. */
export async function snapshotScheduler(ctx: SchedulerContext): Promise<SchedulerSnapshot> {
  const now = ctx.deps.clock.now();
  const { state } = ctx;
  const shown = state.plan ?? (await replan(ctx));
  return {
    running: state.running,
    atMs: now,
    plan: {
      brands: shown.brands,
      dailyLimit: shown.dailyLimit,
      budgetPerDay: shown.budgetPerDay,
      callsPerDay: shown.callsPerDay,
      callsPerBrandPerDay: shown.callsPerBrandPerDay,
      maxBrands: shown.maxBrands,
      intervalsHours: {
        citations: shown.intervals.citationsHours,
        crawler: shown.intervals.crawlerHours,
        'ai-pages': shown.intervals.aiPagesHours,
      },
      stretched: shown.stretched,
      warning: shown.warning,
    },
    quotaWaitUntilMs: state.quotaWaitUntil,
    jobs: Object.fromEntries(
      await Promise.all(JOB_NAMES.map(async (j) => [j, await jobState(ctx, shown, j, now)] as const)),
    ) as Record<JobName, SchedulerJobState>,
  };
}

/** One job's line: its last run (by any process), its next, and whether it runs now. */
async function jobState(
  ctx: SchedulerContext,
  plan: CurrentPlan,
  job: JobName,
  now: number,
): Promise<SchedulerJobState> {
  const { jobRuns } = ctx.deps.store;
  const { state } = ctx;
  const runRow = (await jobRuns.recent(1, job))[0];
  const summary = state.last.get(job);
  const poll = job === 'digest' || job === 'weekly' ? null : job;
  const nextRunAtMs = await nextRunAt(ctx, plan, job, runRow?.startedAtMs ?? null, now);
  const prepareAtMs =
    job === 'digest' && nextRunAtMs !== null && state.quotaWaitUntil === null
      ? Math.max(now, nextRunAtMs - ctx.settings.digestLeadMs)
      : null;
  return {
    prepareAtMs,
    intervalHours: poll ? intervalHoursOf(plan, poll) : null,
    lastRunAtMs: runRow?.startedAtMs ?? null,
    lastOk: runRow?.ok ?? null,
    lastStatus: summary?.status ?? null,
    lastDetail: summary?.detail ?? runRow?.error ?? null,
    nextRunAtMs,
    failureStreak: await jobRuns.failureStreak(job),
    running: state.current === job,
  };
}

/** When `job` runs next: the quota reset while it is spent, else its slot, its time, or never (null). */
async function nextRunAt(
  ctx: SchedulerContext,
  plan: CurrentPlan,
  job: JobName,
  lastStartedAtMs: number | null,
  now: number,
): Promise<number | null> {
  const { subscriptions } = ctx.deps.store;
  if (ctx.state.quotaWaitUntil !== null) return ctx.state.quotaWaitUntil;
  if (job === 'weekly') return nextWeekly(ctx, now);
  if (job === 'digest')
    return nextDigestAt(await subscriptions.listActive('digest'), now, ctx.deps.config.defaultTimezone);
  if ((await subscriptions.activeBrandIds('alerts')).length === 0) return null;
  return nextPollAt(lastStartedAtMs, now, intervalHoursOf(plan, job), plan.offsetsMs[job]);
}
