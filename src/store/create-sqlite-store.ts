/**
 * The Store on one SQLite file (DATABASE_PATH): the embedded default for a team that runs
 * one process. `serve` and `run-job` may share the file (WAL, busy_timeout).
 */
import { systemClock } from '../clock.js';
import { createStore } from './create-store.js';
import type { Db } from './open-database.js';
import { sqliteDialect } from './sql-dialect.js';
import { sqliteStoreDb } from './sqlite-store-dialect.js';
import type { Store, StoreOptions } from './store.js';

export interface SqliteStore extends Store {
  readonly backend: 'sqlite';
  /** The open handle, for what only SQLite has (tests, the rate limiter's file). */
  readonly db: Db;
}

export function createSqliteStore(db: Db, options: StoreOptions = {}): SqliteStore {
  const ownsDb = options.closesDatabase ?? true;
  const store = createStore(
    {
      backend: 'sqlite' as const,
      db,
      async ping() {
        if (!db.open) throw new Error('The SQLite database is closed.');
        db.prepare('SELECT 1').get();
      },
      async close() {
        if (ownsDb && db.open) db.close();
      },
    },
    sqliteStoreDb(db),
    sqliteDialect,
    options.clock ?? systemClock,
  );
  return store;
}
