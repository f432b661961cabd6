/**
 * Runs `fn` in one SQLite transaction, so a detector's new state and the outbox rows it
 * produced are written together or not at all: a crash in between can neither lose an
 * alert (state saved, row missing) nor repeat one (row saved, state missing).
 *
 * BEGIN IMMEDIATE takes the write lock up front. With a deferred BEGIN, two processes that
 * both read first and then write can deadlock on the upgrade, and one of them fails with
 * SQLITE_BUSY at once instead of waiting out busy_timeout. Nested calls become savepoints
 * (better-sqlite3), so repository methods that use this can be composed.
 */
import type { Db } from './open-database.js';

/** The seam repositories' callers depend on; another backend provides its own. */
export type RunInTransaction = <T>(fn: () => T) => T;

/**
 * One wrapper per database, made once: `db.transaction(fn)` builds four wrapper functions
 * and defines properties on each, measurable when a run opens a transaction per brand.
 * Same semantics: BEGIN IMMEDIATE, or a savepoint when nested; rollback on a throw.
 */
const runners = new WeakMap<Db, { immediate: (fn: () => unknown) => unknown }>();

export function transaction<T>(db: Db, fn: () => T): T {
  let runner = runners.get(db);
  if (!runner) {
    runner = db.transaction((f: () => unknown) => f());
    runners.set(db, runner);
  }
  return runner.immediate(fn) as T;
}

export function createTransaction(db: Db): RunInTransaction {
  return (fn) => transaction(db, fn);
}
