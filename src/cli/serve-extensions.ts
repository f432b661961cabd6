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
  (deps, lifecycle) =>
    reportDatabaseOutages(
      {
        database: deps.database,
        // Read when a report is posted: the bot's Slack client is created on first use.
        get web() {
          return deps.web;
        },
        config: { opsChannel: deps.config.opsChannel },
        clock: deps.clock,
        logger: deps.logger,
      },
      lifecycle,
      { processName: processOwner('serve') },
    ),
];
