/**
 * The scheduler in `serve` (node-cron v4): a polling tick every minute starts the poll
 * jobs that are due (job-schedule.ts) at the intervals the quota planner allows, a digest
 * tick every five minutes prepares the digests due within `digestLeadMs` in their
 * subscriptions' time zones (and sends any already due), then writes the weekly summaries
 * due (weekly-job.ts), and the outbox relay drains on
 * its own loop, posting each prepared digest at its time.
 *
 * - No overlap: each cron task has noOverlap, both ticks share one queue in this process,
 *   and the job lease keeps `run-job` in another process off the same job (the scheduler
 *   does not wait for it: its next tick will do).
 * - Quota: when a run finds the daily quota spent, no job starts until it resets, instead
 *   of failing every tick; the relay keeps delivering (Slack is not the API).
 * - Interactive first: jobs use the limiter's background lane, with a small gap between
 *   brands.
 * - State goes to metrics.setSchedulerState (/healthz, `status`) after every tick.
 * - Housekeeping (housekeeping-job.ts) runs once a day, at HOUSEKEEPING_AT_MS past UTC
 *   midnight, from the polling tick whether or not anything is subscribed; a day missed
 *   while the bot was down runs at the first tick after. It calls no API, so a spent quota
 *   does not hold it back.
 * - The database cannot be used: ticks do nothing (quietly: the outage is logged once
 *   where it is noticed), and a job it stopped midway runs again as soon as the database
 *   answers, whatever its slot says (the brands it had not reached would otherwise wait
 *   for the next slot, a day for citations). Alerts are written with the state that made
 *   them, so a brand done twice alerts once.
 *
 * The clock decides what is due, so tests drive `pollTick()`/`digestTick()` with their own
 * clock; the cron patterns are knobs (`* * * * * *` ticks every second).
 */
import cron, { type ScheduledTask } from 'node-cron';
import { type CurrentPlan, currentPollingPlan } from '../alerting/current-polling-plan.js';
import { JOB_NAMES, type JobName, POLL_JOBS } from '../alerting/job-names.js';
import type { SchedulerJobState, SchedulerSnapshot } from '../alerting/scheduler-snapshot.js';
import { nextWeeklyAt, weeklySchedule } from '../alerts/weekly-due.js';
import type { Metrics } from '../metrics.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { appBotHealth } from './bot-health.js';
import { digestDueFor } from './digest-job.js';
import { HOUSEKEEPING_JOB, runHousekeeping } from './housekeeping-job.js';
import { intervalHoursOf, isPollDue, nextDigestAt, nextPollAt } from './job-schedule.js';
import { createOutboxRelay, type RelayTuning } from './outbox-relay.js';
import { processOwner } from './process-owner.js';
import type { JobSummary } from './run-job-once.js';
import { type RunJobsDeps, runJobs } from './run-jobs.js';
import { weeklyDueFor } from './weekly-job.js';

/** The jobs' dependencies, and the metrics the scheduler publishes its state to (/healthz, `status`). */
export type SchedulerDeps = RunJobsDeps & { metrics: Pick<Metrics, 'observeDelivery' | 'setSchedulerState'> };

export interface SchedulerOptions {
  /** node-cron pattern of the polling tick; default every minute. */
  pollCron?: string;
  /** node-cron pattern of the digest check; default every 5 minutes. */
  digestCron?: string;
  /** Outbox relay loop interval; default 5 s. */
  relayIntervalMs?: number;
  /** Pause between brands within a job; default 200 ms. */
  brandGapMs?: number;
  /** Lease and claim owner; default `serve:<host>:<pid>`. */
  owner?: string;
  relay?: RelayTuning;
  /** Run the daily housekeeping from the polling tick; default true. */
  housekeeping?: boolean;
  /** Tick once at start, catching up what was missed while the bot was down; default true. */
  catchUpOnStart?: boolean;
  /** How long before its local time a digest is prepared; default DIGEST_LEAD_MS. */
  digestLeadMs?: number;
  /**
   * Who fires the ticks: node-cron in this process (default), or an engine outside it that
   * calls pollTick()/digestTick() on the same patterns (pg-boss with Postgres, so replicas
   * tick once per slot between them). The relay and the catch-up at start run either way.
   */
  ticks?: 'cron' | 'external';
}

/**
 * Digests are prepared this long before their time. Each costs about one call (its top
 * ideas; the rest is reused from the polls), and the calls go at the key's pace: 1,500
 * brands at 09:00 on a Scale key (a burst of 100, then 1/s) take about 23 minutes, so 45
 * leaves room for polls sharing the key and a digest tick's five minutes. Any earlier and
 * the digest shows staler data for nothing: ideas and poll data are at most this old when
 * it posts (freshObservation judges the polls' age at the post time), and the citation,
 * crawler and AI Pages data change once a day.
 */
export const DIGEST_LEAD_MS = 45 * 60_000;

/** When the daily housekeeping is due: 03:30 UTC, a quiet hour in most time zones that use the bot. */
export const HOUSEKEEPING_AT_MS = 3.5 * 3_600_000;
/** Its lease lasts this long between batches (each batch takes milliseconds). */
const HOUSEKEEPING_LEASE_MS = 10 * 60_000;

export interface Scheduler {
  start(): void;
  stop(): Promise<void>;
  /** Runs the poll jobs that are due now. */
  pollTick(): Promise<void>;
  /** Sends the digests that are due now. */
  digestTick(): Promise<void>;
  snapshot(): Promise<SchedulerSnapshot>;
}

const DEFAULTS = {
  pollCron: '* * * * *',
  digestCron: '*/5 * * * *',
  relayIntervalMs: 5000,
  brandGapMs: 200,
};

/** The cron patterns of the two ticks, for whichever engine fires them. */
export function tickPatterns(options: SchedulerOptions = {}): { poll: string; digest: string } {
  return { poll: options.pollCron ?? DEFAULTS.pollCron, digest: options.digestCron ?? DEFAULTS.digestCron };
}

export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): Scheduler {
  const { clock, store, config } = deps;
  const logger = deps.logger.child({ component: 'scheduler' });
  const owner = options.owner ?? processOwner('serve');
  const outbox = store.outbox({ owner });
  const { subscriptions, jobRuns } = store;
  const health = appBotHealth(deps, outbox);
  const relay = createOutboxRelay(deps, { owner, outbox, subscriptions, health, ...options.relay });

  const stopSignal = new AbortController();
  const tasks: ScheduledTask[] = [];
  let queue: Promise<void> = Promise.resolve();
  let running = false;
  let current: JobName | null = null;
  let quotaWaitUntil: number | null = null;
  // Read at start (replan) and before every poll tick; null only until the first read.
  let plan: CurrentPlan | null = null;
  let warned: string | null = null;
  const last = new Map<JobName, JobSummary>();
  /** Jobs the database stopped: due again at once, once it answers. */
  const interrupted = new Set<JobName>();
  let unsubscribe: (() => void) | undefined;

  async function replan(): Promise<CurrentPlan> {
    const p = await currentPollingPlan(deps);
    plan = p;
    if (p.warning !== warned) {
      if (p.warning) logger.warn({ brands: p.brands, callsPerDay: p.callsPerDay }, p.warning);
      else if (p.stretched)
        logger.info(
          { intervals: p.intervals, brands: p.brands },
          'poll intervals stretched to fit the daily quota',
        );
      warned = p.warning;
    }
    return p;
  }

  const lastStarted = async (job: JobName) => (await jobRuns.recent(1, job))[0]?.startedAtMs ?? null;

  function quotaWaiting(now: number): boolean {
    if (quotaWaitUntil !== null && now >= quotaWaitUntil) quotaWaitUntil = null;
    return quotaWaitUntil !== null;
  }

  async function run(job: JobName): Promise<JobSummary | undefined> {
    current = job;
    await publish();
    try {
      const summary = await runJobs(deps, job, {
        owner,
        force: false,
        leaseWaitMs: 0,
        brandGapMs: options.brandGapMs ?? DEFAULTS.brandGapMs,
        signal: stopSignal.signal,
        deliver: relay,
        deliverWaitMs: 0,
        health,
        digestLeadMs: options.digestLeadMs ?? DIGEST_LEAD_MS,
      });
      const s = summary.jobs[0];
      if (s) last.set(job, s);
      if (s?.status === 'database_unavailable') interrupted.add(job);
      else interrupted.delete(job);
      if (summary.quotaResetAt !== null) {
        quotaWaitUntil = summary.quotaResetAt;
        logger.warn(
          { resetAt: new Date(summary.quotaResetAt).toISOString() },
          'daily API quota spent: no job runs until it resets',
        );
      }
      return s;
    } catch (err) {
      if (isDatabaseUnavailable(err)) interrupted.add(job);
      else logger.error({ err, job }, 'scheduled job run failed');
      return undefined;
    } finally {
      current = null;
    }
  }

  /** Ticks never run side by side in this process. */
  function exclusive(fn: () => Promise<void>): Promise<void> {
    const next = queue
      .then(() => (stopSignal.signal.aborted ? undefined : fn()))
      .catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) logger.debug('tick skipped: the database cannot be used');
        else logger.error({ err }, 'scheduler tick failed');
      })
      .finally(() => publish());
    queue = next;
    return next;
  }

  /** The daily housekeeping, when no run (by any process) started since today's slot. */
  async function housekeepIfDue(): Promise<void> {
    if (options.housekeeping === false || stopSignal.signal.aborted) return;
    const last = (await jobRuns.recent(1, HOUSEKEEPING_JOB))[0]?.startedAtMs ?? null;
    if (!isPollDue(last, clock.now(), 24, HOUSEKEEPING_AT_MS)) return;
    await runHousekeeping(deps, {
      owner,
      leaseWaitMs: 0,
      leaseTtlMs: HOUSEKEEPING_LEASE_MS,
      signal: stopSignal.signal,
    });
  }

  async function pollDue(): Promise<void> {
    if (quotaWaiting(clock.now())) return;
    const p = await replan();
    if ((await subscriptions.activeBrandIds('alerts')).length === 0) return;
    for (const job of POLL_JOBS) {
      if (stopSignal.signal.aborted || quotaWaiting(clock.now())) return;
      if (
        !interrupted.has(job) &&
        !isPollDue(await lastStarted(job), clock.now(), intervalHoursOf(p, job), p.offsetsMs[job])
      )
        continue;
      const s = await run(job);
      // The key is rejected (or the database gone): the other jobs would be refused too.
      if (s?.status === 'key_rejected' || interrupted.has(job)) return;
    }
  }

  const pollTick = () =>
    exclusive(async () => {
      await pollDue();
      await housekeepIfDue();
    });

  const digestTick = () =>
    exclusive(async () => {
      const now = clock.now();
      if (quotaWaiting(now)) return;
      const runInfo = { nowMs: now, force: false, digestLeadMs: options.digestLeadMs ?? DIGEST_LEAD_MS };
      const due = (await subscriptions.listActive('digest')).some(
        (s) => digestDueFor(s, config.defaultTimezone, runInfo) !== null,
      );
      if (due) await run('digest');
      if (await weeklyIsDue(clock.now())) await run('weekly');
    });

  /** Whether a subscription's weekly summary is due (read with the store's weekly state). */
  async function weeklyIsDue(now: number): Promise<boolean> {
    if (quotaWaiting(now)) return false;
    const run = { nowMs: now, force: false };
    for (const s of await subscriptions.listActive())
      if (await weeklyDueFor({ levels: store.channelDetectorState, deps }, s, run)) return true;
    return false;
  }

  /** The next weekly summary of any subscription that has it on; now when one is due. */
  async function nextWeekly(now: number): Promise<number | null> {
    const subs = (await subscriptions.listActive()).filter((s) => s.settings.weekly);
    if (subs.length === 0) return null;
    if (await weeklyIsDue(now)) return now;
    return Math.min(
      ...subs.map((s) => nextWeeklyAt(now, weeklySchedule(s.settings, config.defaultTimezone))),
    );
  }

  async function jobState(plan: CurrentPlan, job: JobName, now: number): Promise<SchedulerJobState> {
    const runRow = (await jobRuns.recent(1, job))[0];
    const summary = last.get(job);
    const poll = job === 'digest' || job === 'weekly' ? null : job;
    const intervalHours = poll ? intervalHoursOf(plan, poll) : null;
    let nextRunAtMs: number | null;
    if (quotaWaitUntil !== null) nextRunAtMs = quotaWaitUntil;
    else if (poll)
      nextRunAtMs = (await subscriptions.activeBrandIds('alerts')).length
        ? nextPollAt(runRow?.startedAtMs ?? null, now, intervalHours!, plan.offsetsMs[poll])
        : null;
    else if (job === 'weekly') nextRunAtMs = await nextWeekly(now);
    else nextRunAtMs = nextDigestAt(await subscriptions.listActive('digest'), now, config.defaultTimezone);
    const lead = options.digestLeadMs ?? DIGEST_LEAD_MS;
    const prepareAtMs =
      job === 'digest' && nextRunAtMs !== null && quotaWaitUntil === null
        ? Math.max(now, nextRunAtMs - lead)
        : null;
    return {
      prepareAtMs,
      intervalHours,
      lastRunAtMs: runRow?.startedAtMs ?? null,
      lastOk: runRow?.ok ?? null,
      lastStatus: summary?.status ?? null,
      lastDetail: summary?.detail ?? runRow?.error ?? null,
      nextRunAtMs,
      failureStreak: await jobRuns.failureStreak(job),
      running: current === job,
    };
  }

  async function snapshot(): Promise<SchedulerSnapshot> {
    const now = clock.now();
    const shown = plan ?? (await replan());
    return {
      running,
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
      quotaWaitUntilMs: quotaWaitUntil,
      jobs: Object.fromEntries(
        await Promise.all(JOB_NAMES.map(async (j) => [j, await jobState(shown, j, now)] as const)),
      ) as Record<JobName, SchedulerJobState>,
    };
  }

  /** Never rejects: the state is informational, and a failure to read it is logged here. */
  async function publish(): Promise<void> {
    try {
      deps.metrics.setSchedulerState((await snapshot()) as unknown as Record<string, unknown>);
    } catch (err) {
      // The database may be closing during shutdown; state is informational.
      logger.debug({ err }, 'could not publish the scheduler state');
    }
  }

  const cronLogger = {
    info: (m: string) => logger.debug(m),
    warn: (m: string) => logger.warn(m),
    error: (m: string | Error) => logger.error(m instanceof Error ? { err: m } : {}, String(m)),
    debug: (m: string | Error) => logger.debug(String(m)),
  };

  return {
    start() {
      if (running) return;
      running = true;
      const taskOptions = { noOverlap: true, logger: cronLogger };
      if (options.ticks !== 'external')
        tasks.push(
          cron.createTask(options.pollCron ?? DEFAULTS.pollCron, () => pollTick(), {
            ...taskOptions,
            name: 'visibility-poll',
          }),
          cron.createTask(options.digestCron ?? DEFAULTS.digestCron, () => digestTick(), {
            ...taskOptions,
            name: 'visibility-digest',
          }),
        );
      for (const t of tasks) void t.start();
      relay.start(options.relayIntervalMs ?? DEFAULTS.relayIntervalMs);
      unsubscribe = deps.database?.onChange((s) => {
        if (!s.reachable || interrupted.size === 0) return;
        if (interrupted.has('digest')) void digestTick();
        if ([...interrupted].some((j) => j !== 'digest')) void pollTick();
      });
      // The plan is read from the database, so asynchronously; first in the tick queue, so
      // the catch-up ticks below run after it. exclusive() logs a failure.
      void exclusive(async () => {
        const p = await replan();
        logger.info(
          {
            intervals: p.intervals,
            brands: p.brands,
            callsPerDay: p.callsPerDay,
            budgetPerDay: p.budgetPerDay,
          },
          'scheduler started',
        );
      });
      if (options.catchUpOnStart !== false) {
        void digestTick();
        void pollTick();
      }
    },
    async stop() {
      if (!running) return;
      stopSignal.abort();
      unsubscribe?.();
      for (const t of tasks.splice(0)) await t.destroy();
      await queue;
      await relay.stop();
      running = false;
      await publish();
      logger.info('scheduler stopped');
    },
    pollTick,
    digestTick,
    snapshot,
  };
}
