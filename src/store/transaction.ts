/**
 * Runs `fn` in one SQLite transaction, so a detector's new state and the outbox rows it
 * produced are written together or not at all: a crash in between can neither lose an
 * alert (state saved, row missing) nor repeat one (row saved, state missing).
 *
 * The seam is asynchronous (a Postgres client is), so BEGIN/COMMIT/ROLLBACK are issued by
 * hand: better-sqlite3's db.transaction() cannot wrap an async function. The open
 * transaction is found through `transactionScope` (AsyncLocalStorage); nested calls inside
 * it become savepoints, one at a time.
 *
 * BEGIN IMMEDIATE takes the write lock up front. With a deferred BEGIN, two processes that
 * both read first and then write can deadlock on the upgrade, and one of them fails with
 * SQLITE_BUSY at once instead of waiting out busy_timeout.
 *
 * The gate: SQLite has one connection per process, so while a transaction awaits, any
 * statement run on that connection is part of it. A repository call from outside the
 * transaction's async context therefore waits (`whenOutsideTransaction`) until it ends:
 * otherwise an outside write would silently join, and be rolled back with, someone
 * else's transaction, and an outside read would see its uncommitted rows.
 */
import type { Db } from './open-database.js';
import { inTurn, type NestingFrame, transactionScope } from './transaction-scope.js';

/** The seam repositories' callers depend on; another backend provides its own. */
export type RunInTransaction = <T>(fn: () => Promise<T>) => Promise<T>;

type SqliteFrame = NestingFrame;

interface Gate {
  /** The outermost frame of the transaction open on this connection, if any. */
  open: SqliteFrame | null;
  /** Settles when `open` ends. */
  ended: Promise<void>;
}

/**
 * One gate per database file, not per connection: two connections to one file in one
 * process (tests stand in for two processes that way) would otherwise deadlock, the one
 * blocking the event loop in busy_timeout while the other's transaction waits for that
 * loop to commit. An in-memory database is its own connection.
 */
const fileGates = new Map<string, Gate>();
const memoryGates = new WeakMap<Db, Gate>();

function existingGate(db: Db): Gate | undefined {
  return db.memory ? memoryGates.get(db) : fileGates.get(db.name);
}

function gateOf(db: Db): Gate {
  let gate = existingGate(db);
  if (!gate) {
    gate = { open: null, ended: Promise.resolve() };
    if (db.memory) memoryGates.set(db, gate);
    else fileGates.set(db.name, gate);
  }
  return gate;
}

/** The frame of the gate's open transaction when the caller runs inside it (on this connection). */
function insideFrame(db: Db, gate: Gate): SqliteFrame | null {
  if (gate.open === null) return null;
  const frame = transactionScope.getStore() as SqliteFrame | undefined;
  return frame !== undefined && frame.owner === db && frame.root === gate.open ? frame : null;
}

/**
 * Runs `fn` (synchronous statements on `db`) once no other context's transaction is open:
 * at once when none is or when the caller is inside it. A throw becomes a rejection.
 */
export function whenOutsideTransaction<T>(db: Db, fn: () => T): Promise<T> {
  const gate = existingGate(db);
  if (gate?.open && insideFrame(db, gate) === null) {
    return gate.ended.then(() => whenOutsideTransaction(db, fn));
  }
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** ROLLBACK after a failed body; a failing rollback must not hide why the body failed. */
function rollback(db: Db, statement: string, cause: unknown): void {
  try {
    if (db.inTransaction) db.exec(statement);
  } catch (err) {
    throw new AggregateError([cause, err], 'transaction failed and could not be rolled back');
  }
}

function savepoint<T>(db: Db, parent: SqliteFrame, fn: () => Promise<T>): Promise<T> {
  return inTurn(parent, async () => {
    const frame: SqliteFrame = {
      owner: db,
      connection: db,
      root: parent.root,
      depth: parent.depth + 1,
      tail: Promise.resolve(),
    };
    const name = `nested_${frame.depth}`;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await transactionScope.run(frame, fn);
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (err) {
      rollback(db, `ROLLBACK TO ${name}; RELEASE ${name}`, err);
      throw err;
    }
  });
}

export async function transaction<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const gate = gateOf(db);
  const parent = insideFrame(db, gate);
  if (parent) return savepoint(db, parent, fn);
  while (gate.open) await gate.ended;

  const frame: SqliteFrame = {
    owner: db,
    connection: db,
    depth: 0,
    tail: Promise.resolve(),
    get root() {
      return frame;
    },
  };
  let end!: () => void;
  gate.open = frame;
  gate.ended = new Promise((resolve) => {
    end = resolve;
  });
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = await transactionScope.run(frame, fn);
      db.exec('COMMIT');
      return result;
    } catch (err) {
      rollback(db, 'ROLLBACK', err);
      throw err;
    }
  } finally {
    gate.open = null;
    end();
  }
}

export function createTransaction(db: Db): RunInTransaction {
  return (fn) => transaction(db, fn);
}
