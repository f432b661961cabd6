/**
 * The transaction seam repositories' callers depend on (RunInTransaction; the store's
 * `transaction` is one), and the same transaction on a bare SQLite handle, for code that
 * holds the handle rather than a store. transaction-scope.ts is the implementation.
 */
import type { Db } from './open-database.js';
import { sqliteStoreDb } from './sqlite-store-dialect.js';
import { createTransaction, type RunInTransaction } from './transaction-scope.js';

export type { RunInTransaction };

/** Runs `fn` in one transaction on `db`, the one every store on that handle shares. */
export function transaction<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  return createTransaction(sqliteStoreDb(db))(fn);
}
