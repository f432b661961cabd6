/**
 * The jobs' deps, picked by name out of the process's (AppDeps, with close(), the brand
 * cache and the whole config): what the scheduler, run-job and the outbox relay read, with
 * the config cut down to JobSettings. The Slack client stays lazy: it is created (and its
 * package loaded) when the relay first posts, as AppDeps promises.
 */
import { jobSettingsOf } from './job-settings.js';
import type { SchedulerDeps } from './scheduler.js';

export function jobsDepsOf(deps: SchedulerDeps): SchedulerDeps {
  return {
    api: deps.api,
    store: deps.store,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    config: jobSettingsOf(deps.config),
    get web() {
      return deps.web;
    },
    ...(deps.charts ? { charts: deps.charts } : {}),
    ...(deps.database ? { database: deps.database } : {}),
    ...(deps.deliveryNudge ? { deliveryNudge: deps.deliveryNudge } : {}),
  };
}
