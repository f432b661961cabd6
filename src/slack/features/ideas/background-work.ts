/**
 * Work a command leaves running after it answered (following a refresh). The command's
 * listener has returned by then, so the service's in-flight drain does not wait for it;
 * instead every such task gets an AbortSignal that the service's stop hooks fire, so a
 * shutdown never leaves a poll running against a closed API client.
 */
import type { AppDeps } from '../../../app-deps.js';

// Keyed by the service's stop-hook list, not by `deps`: every request gets its own deps
// object (request-deps.ts) but shares the service's onStop, so one hook serves them all.
const running = new WeakMap<AppDeps['onStop'], Set<AbortController>>();

function tasksOf(deps: AppDeps): Set<AbortController> {
  let set = running.get(deps.onStop);
  if (!set) {
    const tasks = new Set<AbortController>();
    set = tasks;
    running.set(deps.onStop, tasks);
    deps.onStop.push(() => {
      for (const c of tasks) c.abort(new Error('the service is stopping'));
    });
  }
  return set;
}

export function runInBackground(
  deps: AppDeps,
  work: (signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  const tasks = tasksOf(deps);
  const controller = new AbortController();
  tasks.add(controller);
  return work(controller.signal)
    .then(
      () => undefined,
      (err: unknown) => deps.logger.error({ err }, 'background work failed'),
    )
    .finally(() => tasks.delete(controller));
}
