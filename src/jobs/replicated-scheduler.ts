/**
 * The scheduler of a replica on Postgres: the same Scheduler, its ticks fired by pg-boss
 * (pg-boss-ticks.ts) instead of node-cron, so N replicas tick once per slot between them.
 * This keeps the two in the one order that loses no tick: the engine starts after the
 * scheduler (a tick may arrive at once) and stops before it (a stopped scheduler's tick
 * returns at once, and pg-boss would record the slot as done).
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
  /** Starts the scheduler (relay, catch-up), then the engine; rejects, stopped, when the engine cannot start. */
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
      scheduler.start();
      try {
        await ticks.start();
      } catch (err) {
        await scheduler.stop();
        throw err;
      }
    },
    async stop() {
      await ticks.stop();
      await scheduler.stop();
    },
  };
}
