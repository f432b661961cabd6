/**
 * The scheduler in `serve` (node-cron v4): a polling tick every minute starts the poll
 * jobs that are due (job-schedule.ts) at the intervals the quota planner allows, a digest
 * tick every five minutes prepares the digests due within `digestLeadMs` in their
 * subscriptions' time zones (and sends any already due), then writes the weekly summaries
 * due (weekly-job.ts), and the outbox relay drains on its own loop, posting each prepared
 * digest at its time. What is due is planned in scheduler/due-jobs.ts, the ticks'
 * work is in scheduler/scheduler-ticks.ts, and /healthz's view in
 * scheduler/snapshot-scheduler.ts; this module queues the ticks and starts and stops them.
 *
 * - No overlap: each cron task has noOverlap, both ticks share one queue in this process,
 *   and the job lease keeps `run-job` in another process off the same job (the scheduler
 *   does not wait for it: its next tick will do).
 * - Quota: when a run finds the daily quota spent, no job starts until it resets, instead
 *   of failing every tick; the relay keeps delivering (Slack is not the API).
 * - State goes to metrics.setSchedulerState (/healthz, `status`) after every tick.
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
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { SchedulerSnapshot } from '../use-cases/scheduler-snapshot.js';
import { appBotHealth } from './bot-health.js';
import { createOutboxRelay, type RelayTuning } from './outbox-relay.js';
import { processOwner } from './process-owner.js';
import { replan } from './scheduler/replan.js';
import {
  newSchedulerState,
  type SchedulerContext,
  type SchedulerDeps,
} from './scheduler/scheduler-context.js';
import { digestTickOnce, pollTickOnce } from './scheduler/scheduler-ticks.js';
import { snapshotScheduler } from './scheduler/snapshot-scheduler.js';

// The names the rest of the code imports from here.
export type { SchedulerDeps } from './scheduler/scheduler-context.js';

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

/**
 * The scheduler's shared state and settings (each planning and ticking function's first
 * argument); `stopSignal` ends its runs.
 */
export function createSchedulerContext(
  deps: SchedulerDeps,
  options: SchedulerOptions,
  stopSignal: AbortSignal,
): SchedulerContext {
  const owner = options.owner ?? processOwner('serve');
  const outbox = deps.store.outbox({ owner });
  const health = appBotHealth(deps, outbox);
  const subscriptions = deps.store.subscriptions;
  return {
    deps,
    logger: deps.logger.child({ component: 'scheduler' }),
    owner,
    health,
    relay: createOutboxRelay(deps, { owner, outbox, subscriptions, health, ...options.relay }),
    settings: {
      brandGapMs: options.brandGapMs ?? DEFAULTS.brandGapMs,
      digestLeadMs: options.digestLeadMs ?? DIGEST_LEAD_MS,
      housekeeping: options.housekeeping !== false,
    },
    state: newSchedulerState(),
    stopSignal,
  };
}

export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): Scheduler {
  const stop = new AbortController();
  const ctx = createSchedulerContext(deps, options, stop.signal);
  const { logger, state, relay } = ctx;
  const tasks: ScheduledTask[] = [];
  let queue: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | undefined;

  /** Never rejects: the state is informational, and a failure to read it is logged here. */
  async function publish(): Promise<void> {
    try {
      deps.metrics.setSchedulerState((await snapshotScheduler(ctx)) as unknown as Record<string, unknown>);
    } catch (err) {
      // The database may be closing during shutdown; state is informational.
      logger.debug({ err }, 'could not publish the scheduler state');
    }
  }

  /** Ticks never run side by side in this process. */
  function exclusive(fn: () => Promise<void>): Promise<void> {
    const next = queue
      .then(() => (stop.signal.aborted ? undefined : fn()))
      .catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) logger.debug('tick skipped: the database cannot be used');
        else logger.error({ err }, 'scheduler tick failed');
      })
      .finally(() => publish());
    queue = next;
    return next;
  }

  const pollTick = () => exclusive(() => pollTickOnce(ctx, publish));
  const digestTick = () => exclusive(() => digestTickOnce(ctx, publish));

  return {
    start() {
      if (state.running) return;
      state.running = true;
      if (options.ticks !== 'external') tasks.push(...cronTasks(options, logger, { pollTick, digestTick }));
      for (const t of tasks) void t.start();
      relay.start(options.relayIntervalMs ?? DEFAULTS.relayIntervalMs);
      unsubscribe = deps.database?.onChange((s) => {
        if (!s.reachable || state.interrupted.size === 0) return;
        if (state.interrupted.has('digest')) void digestTick();
        if ([...state.interrupted].some((j) => j !== 'digest')) void pollTick();
      });
      // The plan is read from the database, so asynchronously; first in the tick queue, so
      // the catch-up ticks below run after it. exclusive() logs a failure.
      void exclusive(async () => {
        const p = await replan(ctx);
        const { intervals, brands, callsPerDay, budgetPerDay } = p;
        logger.info({ intervals, brands, callsPerDay, budgetPerDay }, 'scheduler started');
      });
      if (options.catchUpOnStart !== false) {
        void digestTick();
        void pollTick();
      }
    },
    async stop() {
      if (!state.running) return;
      stop.abort();
      unsubscribe?.();
      for (const t of tasks.splice(0)) await t.destroy();
      await queue;
      await relay.stop();
      state.running = false;
      await publish();
      logger.info('scheduler stopped');
    },
    pollTick,
    digestTick,
    snapshot: () => snapshotScheduler(ctx),
  };
}

/** The two node-cron tasks, not yet started, firing the ticks on their patterns. */
function cronTasks(
  options: SchedulerOptions,
  logger: Logger,
  ticks: Pick<Scheduler, 'pollTick' | 'digestTick'>,
): ScheduledTask[] {
  const cronLogger = {
    info: (m: string) => logger.debug(m),
    warn: (m: string) => logger.warn(m),
    error: (m: string | Error) => logger.error(m instanceof Error ? { err: m } : {}, String(m)),
    debug: (m: string | Error) => logger.debug(String(m)),
  };
  const taskOptions = { noOverlap: true, logger: cronLogger };
  const patterns = tickPatterns(options);
  return [
    cron.createTask(patterns.poll, () => ticks.pollTick(), { ...taskOptions, name: 'visibility-poll' }),
    cron.createTask(patterns.digest, () => ticks.digestTick(), { ...taskOptions, name: 'visibility-digest' }),
  ];
}
