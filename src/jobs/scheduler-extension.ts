/**
 * Plugs the scheduler into `serve` (src/cli/serve-extensions.ts): it starts after the
 * service listens and stops before the database closes.
 */
import type { AppDeps } from '../app-deps.js';
import { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler.js';

export function schedulerExtension(options: SchedulerOptions = {}): (deps: AppDeps) => void {
  return (deps) => {
    let scheduler: Scheduler | undefined;
    deps.onStart.push(() => {
      scheduler = createScheduler(deps, options);
      scheduler.start();
    });
    deps.onStop.push(async () => {
      await scheduler?.stop();
    });
  };
}
