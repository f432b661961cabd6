/**
 * What every repository is built from, whatever the backend: where to run a statement (the
 * caller's open transaction, else the database), the few SQL pieces that differ between
 * SQLite and Postgres, the transaction (for a repository method that must read and then
 * write as one), and the clock job runs are stamped with.
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database, StoreDb } from './database.js';
import type { SqlDialect } from './sql-dialect.js';
import { createTransaction, currentExecutor, type RunInTransaction } from './transaction-scope.js';

export interface RepoContext {
  /** Where a statement runs now: the caller's open transaction on this database, else the database. */
  db(): Kysely<Database>;
  readonly sql: SqlDialect;
  readonly transaction: RunInTransaction;
  readonly clock: Clock;
}

export function repoContext(db: StoreDb, dialect: SqlDialect, clock: Clock): RepoContext {
  return {
    db: () => currentExecutor(db),
    sql: dialect,
    transaction: createTransaction(db),
    clock,
  };
}

/** How many rows a write touched, from the builder's bigint count. */
export const count = (n: bigint | undefined): number => Number(n ?? 0n);
