/**
 * Plugs the scheduler into `serve` (src/cli/serve-extensions.ts): serve starts it once the
 * service listens; it stops when the service's lifecycle signal aborts (after the requests
 * in flight finished), and shutdown waits for that stop before the database closes.
 *
 * On Postgres (DATABASE_URL) replicas share the database, so the ticks run on pg-boss
 * (replicated-scheduler.ts): each slot's tick once across replicas. Should pg-boss not
 * start, this replica ticks with node-cron instead of not at all: job leases and job runs
 * still keep each job once per slot, and the error says why.
 *
 * The database URL stops here: pg-boss, which connects with it, gets it; the scheduler and
 * its jobs get only their settings (jobsDepsOf).
 */
import type { DatabaseBackend } from '../config.js';
import type { ServiceLifecycle } from '../service-lifecycle.js';
import { stopOnAbort } from '../service-lifecycle.js';
import type { JobSettings } from './job-settings.js';
import { jobsDepsOf } from './jobs-deps-of.js';
import type { PgBossTicksOptions } from './pg-boss-ticks.js';
import { createScheduler, type SchedulerDeps, type SchedulerOptions } from './scheduler.js';

/** The scheduler's deps, and which database its ticks share across replicas (DATABASE_URL). */
interface SchedulerExtensionDeps extends SchedulerDeps {
  config: JobSettings & { databaseBackend: DatabaseBackend; databaseUrl: string | undefined };
}

export function schedulerExtension(
  options: SchedulerOptions = {},
  /** pg-boss knobs, on Postgres only (tests). */
  ticks: Omit<PgBossTicksOptions, 'patterns' | 'logger'> = {},
): (deps: SchedulerExtensionDeps, lifecycle: ServiceLifecycle) => void {
  return (given, lifecycle) => {
    const { databaseBackend, databaseUrl } = given.config;
    const deps = jobsDepsOf(given);
    if (databaseBackend !== 'postgres' || !databaseUrl) {
      const scheduler = createScheduler(deps, options);
      scheduler.start();
      lifecycle.waitFor(
        'the scheduler',
        stopOnAbort(lifecycle.signal, () => scheduler.stop()),
      );
      return;
    }
    // Loaded only here, as the Postgres client is: a SQLite install never loads pg-boss.
    const started = import('./replicated-scheduler.js')
      .then(async ({ createReplicatedScheduler }) => {
        const replicated = createReplicatedScheduler(deps, databaseUrl, options, ticks);
        await replicated.start();
        return () => replicated.stop();
      })
      .catch((err: unknown) => {
        deps.logger.error(
          { err, component: 'scheduler' },
          'the ticks could not start on pg-boss: this replica ticks with node-cron instead (job leases keep each job once per slot)',
        );
        const scheduler = createScheduler(deps, options);
        scheduler.start();
        return () => scheduler.stop();
      });
    lifecycle.waitFor(
      'the scheduler',
      started.then((stop) => stopOnAbort(lifecycle.signal, stop)),
    );
  };
}
