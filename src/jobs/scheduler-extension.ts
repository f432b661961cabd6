/**
 * Plugs the scheduler into `serve` (src/cli/serve-extensions.ts): serve starts it once the
 * service listens; it stops when the service's lifecycle signal aborts (after the requests
 * in flight finished), and shutdown waits for that stop before the database closes.
 */
import type { ServiceLifecycle } from '../service-lifecycle.js';
import { stopOnAbort } from '../service-lifecycle.js';
import { createScheduler, type SchedulerDeps, type SchedulerOptions } from './scheduler.js';

export function schedulerExtension(
  options: SchedulerOptions = {},
): (deps: SchedulerDeps, lifecycle: ServiceLifecycle) => void {
  return (deps, lifecycle) => {
    const scheduler = createScheduler(deps, options);
    scheduler.start();
    lifecycle.waitFor(
      'the scheduler',
      stopOnAbort(lifecycle.signal, () => scheduler.stop()),
    );
  };
}
