/**
 * The Store from a query builder on either backend: every repository written once
 * (repos/), the transaction that spans them, and the backend's own ping and close. The
 * SQLite and Postgres stores (create-sqlite-store.ts, postgres/create-postgres-store.ts)
 * differ only in how they open the database and in the few SQL pieces `dialect` holds.
 */
import type { Clock } from '../clock.js';
import type { StoreDb } from './database.js';
import { repoContext } from './repo-context.js';
import { createAlertHistoryQueries } from './repos/alert-history.js';
import { createAlertStatesRepo } from './repos/alert-states.js';
import { createAuditLog } from './repos/audit-log.js';
import { createChannelDefaultsRepo } from './repos/channel-defaults.js';
import { createChannelDetectorStateRepo } from './repos/channel-detector-state.js';
import { createChannelPaceRepo } from './repos/channel-pace.js';
import { createCitationStateRepo } from './repos/citation-state.js';
import { createCrawlerHistoryRepo } from './repos/crawler-history.js';
import { createDatabaseSizeQueries } from './repos/database-size.js';
import { createHandledRequestsRepo } from './repos/handled-requests.js';
import { createHealthFlagsRepo } from './repos/health-flags.js';
import { createJobRunsRepo } from './repos/job-runs.js';
import { createModelCitationStateRepo } from './repos/model-citation-state.js';
import { createOutboxRepo } from './repos/outbox.js';
import { createPollObservationsRepo } from './repos/poll-observations.js';
import { createSnoozesRepo } from './repos/snoozes.js';
import { createSubscriptionsRepo } from './repos/subscriptions.js';
import { createWorkspaceChartsRepo } from './repos/workspace-charts.js';
import type { SqlDialect } from './sql-dialect.js';
import type { Store } from './store.js';

/** What only the backend knows: its name, how to ask it for a sign of life, how to close it. */
type BackendParts = Pick<Store, 'backend' | 'ping' | 'close'>;

/**
 * Each repository is made when it is first used: a `run-job` with nothing to do uses a
 * few of them, and making one compiles its code. Then it stays, an ordinary property.
 */
function withRepositoriesOnFirstUse<S extends object, R extends object>(
  store: S,
  repositories: { readonly [K in keyof R]: () => R[K] },
): S & R {
  for (const name of Object.keys(repositories) as (keyof R & string)[]) {
    Object.defineProperty(store, name, {
      configurable: true,
      enumerable: true,
      get() {
        const repo = repositories[name]();
        Object.defineProperty(store, name, {
          value: repo,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return repo;
      },
    });
  }
  return store as S & R;
}

/** The Store, with `extra` (what only the backend has: its handle) beside the repositories. */
export function createStore<E extends object>(
  backend: BackendParts & E,
  db: StoreDb,
  dialect: SqlDialect,
  clock: Clock,
): Store & E {
  const ctx = repoContext(db, dialect, clock);
  const parts = {
    ...backend,
    transaction: ctx.transaction,
    outbox: (o: Parameters<Store['outbox']>[0]) => createOutboxRepo(ctx, o),
  };
  return withRepositoriesOnFirstUse(parts, {
    subscriptions: () => createSubscriptionsRepo(ctx),
    snoozes: () => createSnoozesRepo(ctx),
    channelDefaults: () => createChannelDefaultsRepo(ctx),
    auditLog: () => createAuditLog(ctx),
    pollObservations: () => createPollObservationsRepo(ctx),
    healthFlags: () => createHealthFlagsRepo(ctx),
    citationState: () => createCitationStateRepo(ctx),
    channelDetectorState: () => createChannelDetectorStateRepo(ctx),
    crawlerHistory: () => createCrawlerHistoryRepo(ctx),
    handledRequests: () => createHandledRequestsRepo(ctx),
    alertHistory: () => createAlertHistoryQueries(ctx),
    alertStates: () => createAlertStatesRepo(ctx),
    jobRuns: () => createJobRunsRepo(ctx),
    databaseSize: () => createDatabaseSizeQueries(ctx),
    channelPace: () => createChannelPaceRepo(ctx),
    modelCitationState: () => createModelCitationStateRepo(ctx),
    workspaceCharts: () => createWorkspaceChartsRepo(ctx),
  } satisfies { [K in Exclude<keyof Store, keyof BackendParts | 'transaction' | 'outbox'>]: () => Store[K] });
}
