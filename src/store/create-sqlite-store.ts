/**
 * The Store on one SQLite file (DATABASE_PATH): the embedded default for a team that runs
 * one process. `serve` and `run-job` may share the file (WAL, busy_timeout).
 */
import { systemClock } from '../clock.js';
import { createAlertHistoryQueries } from './alert-history-queries.js';
import { createAuditLog } from './audit-log.js';
import { createChannelDefaultsRepo } from './channel-defaults-repo.js';
import { createChannelDetectorStateRepo } from './channel-detector-state-repo.js';
import { createChannelPaceRepo } from './channel-pace-repo.js';
import { createCitationStateRepo } from './citation-state-repo.js';
import { createHandledRequestsRepo } from './handled-requests-repo.js';
import { createHealthFlagsRepo } from './health-flags-repo.js';
import { createJobRunsRepo } from './job-runs-repo.js';
import type { Db } from './open-database.js';
import { createOutboxRepo } from './outbox-repo.js';
import { createPollObservationsRepo } from './poll-observations-repo.js';
import { createSnoozesRepo } from './snoozes-repo.js';
import type { Store, StoreOptions } from './store.js';
import { createSubscriptionsRepo } from './subscriptions-repo.js';
import { createTransaction } from './transaction.js';

export interface SqliteStore extends Store {
  readonly backend: 'sqlite';
  /** The open handle, for what only SQLite has (tests, the rate limiter's file). */
  readonly db: Db;
}

export function createSqliteStore(db: Db, options: StoreOptions = {}): SqliteStore {
  const ownsDb = options.closesDatabase ?? true;
  return {
    backend: 'sqlite',
    db,
    transaction: createTransaction(db),
    subscriptions: createSubscriptionsRepo(db),
    snoozes: createSnoozesRepo(db),
    channelDefaults: createChannelDefaultsRepo(db),
    auditLog: createAuditLog(db),
    pollObservations: createPollObservationsRepo(db),
    healthFlags: createHealthFlagsRepo(db),
    citationState: createCitationStateRepo(db),
    channelDetectorState: createChannelDetectorStateRepo(db),
    handledRequests: createHandledRequestsRepo(db),
    alertHistory: createAlertHistoryQueries(db),
    jobRuns: createJobRunsRepo(db, options.clock ?? systemClock),
    channelPace: createChannelPaceRepo(db),
    outbox: (o) => createOutboxRepo(db, o),
    async ping() {
      if (!db.open) throw new Error('The SQLite database is closed.');
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (ownsDb && db.open) db.close();
    },
  };
}
