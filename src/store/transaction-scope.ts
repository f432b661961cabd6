/**
 * Which transaction the current async call chain is inside, and the transaction itself,
 * for both backends. Callers write
 * `await store.transaction(async () => { await citations.save(…); await outbox.enqueue(…) })`
 * with repositories captured in closures; a repository asks `current()` where to run its
 * statement, and gets the open transaction when the caller is inside one and the database
 * otherwise, so the same repository object serves calls inside and outside a transaction.
 *
 * The transaction is the query builder's (Kysely's): BEGIN on one connection (the pool's
 * for Postgres; SQLite's one connection, BEGIN IMMEDIATE, behind its gate:
 * sqlite-store-dialect.ts), COMMIT when the body resolves, ROLLBACK when it throws. The
 * statements of one transaction run one at a time on its connection, however the body
 * awaits them. Nested calls become savepoints, one after another as a stack must be.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, sql } from 'kysely';
import type { Database, StoreDb } from './database.js';

/** The seam repositories' callers depend on. */
export type RunInTransaction = <T>(fn: () => Promise<T>) => Promise<T>;

interface Frame {
  /** The database the transaction was opened on. */
  readonly owner: StoreDb;
  /** Where its statements run. */
  readonly connection: Kysely<Database>;
  /** 0 for the transaction itself, 1 and deeper for savepoints inside it. */
  readonly depth: number;
  /** Settles when the last savepoint started from this frame has ended. */
  tail: Promise<void>;
}

const scope = new AsyncLocalStorage<Frame>();

function frameOn(db: StoreDb): Frame | null {
  const frame = scope.getStore();
  return frame !== undefined && frame.owner === db ? frame : null;
}

/** Where a statement on `db` runs now: the caller's open transaction on it, else `db`. */
export function currentExecutor(db: StoreDb): Kysely<Database> {
  return frameOn(db)?.connection ?? db;
}

/** Runs `fn` once every savepoint started from `parent` before it has ended. */
async function inTurn<T>(parent: Frame, fn: () => Promise<T>): Promise<T> {
  const before = parent.tail;
  let done!: () => void;
  parent.tail = new Promise((resolve) => {
    done = resolve;
  });
  try {
    await before;
    return await fn();
  } finally {
    done();
  }
}

function savepoint<T>(parent: Frame, fn: () => Promise<T>): Promise<T> {
  return inTurn(parent, async () => {
    const frame: Frame = { ...parent, depth: parent.depth + 1, tail: Promise.resolve() };
    const name = sql.raw(`nested_${frame.depth}`);
    const on = frame.connection;
    await sql`SAVEPOINT ${name}`.execute(on);
    try {
      const result = await scope.run(frame, fn);
      await sql`RELEASE SAVEPOINT ${name}`.execute(on);
      return result;
    } catch (err) {
      await sql`ROLLBACK TO SAVEPOINT ${name}`.execute(on);
      await sql`RELEASE SAVEPOINT ${name}`.execute(on);
      throw err;
    }
  });
}

/** The transaction on `db`; inside another one on it, a savepoint. */
export function createTransaction(db: StoreDb): RunInTransaction {
  return (fn) => {
    const parent = frameOn(db);
    if (parent) return savepoint(parent, fn);
    return db
      .transaction()
      .execute((trx) => scope.run({ owner: db, connection: trx, depth: 0, tail: Promise.resolve() }, fn));
  };
}
