/**
 * The Store on Postgres (DATABASE_URL): one pool shared by every repository, so replicas
 * on several hosts share subscriptions, detector state, the outbox, job runs and leases.
 */
import { systemClock } from '../../clock.js';
import type { Store, StoreOptions } from '../store.js';
import type { PgPool } from './create-pool.js';
import { openPostgres } from './open-postgres.js';
import { createPgAlertHistoryQueries } from './pg-alert-history-queries.js';
import { createPgAuditLog } from './pg-audit-log.js';
import { createPgChannelDefaultsRepo } from './pg-channel-defaults-repo.js';
import { createPgChannelDetectorStateRepo } from './pg-channel-detector-state-repo.js';
import { createPgChannelPaceRepo } from './pg-channel-pace-repo.js';
import { createPgCitationStateRepo } from './pg-citation-state-repo.js';
import { createPgHandledRequestsRepo } from './pg-handled-requests-repo.js';
import { createPgHealthFlagsRepo } from './pg-health-flags-repo.js';
import { createPgJobRunsRepo } from './pg-job-runs-repo.js';
import { createPgOutboxRepo } from './pg-outbox-repo.js';
import { createPgPollObservationsRepo } from './pg-poll-observations-repo.js';
import { createPgSnoozesRepo } from './pg-snoozes-repo.js';
import { createPgSubscriptionsRepo } from './pg-subscriptions-repo.js';
import { pgTransaction } from './pg-transaction.js';

export interface PostgresStore extends Store {
  readonly backend: 'postgres';
  /** The pool, for what only Postgres has (the shared rate budget, the job engine). */
  readonly pool: PgPool;
}

export function createPostgresStore(pool: PgPool, options: StoreOptions = {}): PostgresStore {
  const ownsPool = options.closesDatabase ?? true;
  let ended = false;
  return {
    backend: 'postgres',
    pool,
    transaction: (fn) => pgTransaction(pool, fn),
    subscriptions: createPgSubscriptionsRepo(pool),
    snoozes: createPgSnoozesRepo(pool),
    channelDefaults: createPgChannelDefaultsRepo(pool),
    auditLog: createPgAuditLog(pool),
    pollObservations: createPgPollObservationsRepo(pool),
    healthFlags: createPgHealthFlagsRepo(pool),
    citationState: createPgCitationStateRepo(pool),
    channelDetectorState: createPgChannelDetectorStateRepo(pool),
    handledRequests: createPgHandledRequestsRepo(pool),
    alertHistory: createPgAlertHistoryQueries(pool),
    jobRuns: createPgJobRunsRepo(pool, options.clock ?? systemClock),
    channelPace: createPgChannelPaceRepo(pool),
    outbox: (o) => createPgOutboxRepo(pool, o),
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      if (!ownsPool || ended) return;
      ended = true;
      await pool.end();
    },
  };
}

/** Connects to DATABASE_URL, migrates (once across replicas) and builds the Store. */
export async function openPostgresStore(url: string, options: StoreOptions = {}): Promise<PostgresStore> {
  const { pool } = await openPostgres(url);
  return createPostgresStore(pool, options);
}
