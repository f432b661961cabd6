/**
 * The Store on Postgres (DATABASE_URL): one pool shared by every repository, so replicas
 * on several hosts share subscriptions, detector state, the outbox, job runs and leases.
 * The repositories are the SQLite store's (repos/), on the pool's query builder.
 */
import { systemClock } from '../../clock.js';
import { createStore } from '../create-store.js';
import type { Store, StoreOptions } from '../store.js';
import type { PgPool } from './create-pool.js';
import { openPostgres } from './open-postgres.js';
import { postgresDialect, postgresStoreDb } from './postgres-store-dialect.js';

export interface PostgresStore extends Store {
  readonly backend: 'postgres';
  /** The pool, for what only Postgres has (the shared rate budget, the job engine). */
  readonly pool: PgPool;
}

export function createPostgresStore(pool: PgPool, options: StoreOptions = {}): PostgresStore {
  const ownsPool = options.closesDatabase ?? true;
  let ended = false;
  const store = createStore(
    {
      backend: 'postgres' as const,
      pool,
      async ping() {
        await pool.query('SELECT 1');
      },
      async close() {
        if (!ownsPool || ended) return;
        ended = true;
        await pool.end();
      },
    },
    postgresStoreDb(pool),
    postgresDialect,
    options.clock ?? systemClock,
  );
  return store;
}

/** Connects to DATABASE_URL, migrates (once across replicas) and builds the Store. */
export async function openPostgresStore(url: string, options: StoreOptions = {}): Promise<PostgresStore> {
  const { pool } = await openPostgres(url);
  return createPostgresStore(pool, options);
}
