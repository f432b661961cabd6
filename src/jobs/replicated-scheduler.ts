/**
 * The scheduler of a replica on Postgres: the same Scheduler, its ticks fired by pg-boss
 * (pg-boss-ticks.ts) instead of node-cron, so N replicas tick once per slot between them.
 * The engine stops before the scheduler: a stopped scheduler's tick returns at once, and
 * pg-boss would record the slot as done. It also starts first, so an engine that cannot
 * start leaves nothing running (a catch-up cut short would hold its job's lease). A tick
 * that arrives before scheduler.start() is fine: ticks need no start, only the relay
 * loop and the catch-up do.
 */
import { createPgBossTicks, type PgBossTicksOptions } from './pg-boss-ticks.js';
import {
  createScheduler,
  type Scheduler,
  type SchedulerDeps,
  type SchedulerOptions,
  tickPatterns,
} from './scheduler.js';

export interface ReplicatedScheduler {
  readonly scheduler: Scheduler;
  /** Starts the engine, then the scheduler (relay, catch-up); rejects, with nothing started, when the engine cannot start. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createReplicatedScheduler(
  deps: SchedulerDeps,
  connectionString: string,
  options: SchedulerOptions = {},
  tuning: Omit<PgBossTicksOptions, 'patterns' | 'logger'> = {},
): ReplicatedScheduler {
  const scheduler = createScheduler(deps, { ...options, ticks: 'external' });
  const ticks = createPgBossTicks(connectionString, scheduler, {
    ...(options.owner ? { instanceName: options.owner } : {}),
    ...tuning,
    patterns: tickPatterns(options),
    logger: deps.logger,
  });
  return {
    scheduler,
    async start() {
      await ticks.start();
      scheduler.start();
    },
    async stop() {
      await ticks.stop();
      await scheduler.stop();
    },
  };
}
