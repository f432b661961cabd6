/**
 * What `serve` runs besides the Slack service. serve starts each extension once the
 * service listens, handing it the deps and the service's lifecycle: the extension stops
 * when the lifecycle signal aborts and hands shutdown what to wait for (the scheduler
 * stops after the requests in flight finished and before the database closes). To add
 * one: append it here (one line).
 */
import type { AppDeps } from '../app-deps.js';
import { reportDatabaseOutages } from '../jobs/database-outage-report.js';
import { processOwner } from '../jobs/process-owner.js';
import { schedulerExtension } from '../jobs/scheduler-extension.js';
import type { ServiceLifecycle } from '../service-lifecycle.js';

export type ServeExtension = (deps: AppDeps, lifecycle: ServiceLifecycle) => void;

export const serveExtensions: ServeExtension[] = [
  schedulerExtension(),
  (deps, lifecycle) => reportDatabaseOutages(deps, lifecycle, { processName: processOwner('serve') }),
];
