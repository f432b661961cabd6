/**
 * The query builder (Kysely) on an SQLite handle (better-sqlite3), as the store needs it:
 *
 * - One builder per handle (`sqliteStoreDb`), so every store built on a handle shares it
 *   and a transaction opened through one is seen by the repositories of another.
 * - The gate: SQLite has one connection per process, so while a transaction awaits, any
 *   statement run on that connection is part of it. A statement from outside the
 *   transaction's async context therefore waits until it ends (the connection is taken
 *   for the whole transaction and for each statement outside one); otherwise an outside
 *   write would join, and be rolled back with, someone else's transaction, and an outside
 *   read would see its uncommitted rows. Statements inside the context run on the
 *   transaction (transaction-scope.ts) and never wait. The gate is per database file, not
 *   per handle: two handles on one file in one process (tests stand in for two processes
 *   that way) would otherwise deadlock, one blocking the event loop in busy_timeout while
 *   the other's transaction waits for that loop to commit.
 * - BEGIN IMMEDIATE takes the write lock up front: with a deferred BEGIN, two processes
 *   that both read first and then write can deadlock on the upgrade, and one fails with
 *   SQLITE_BUSY at once instead of waiting out busy_timeout.
 * - Statements are prepared once per SQL text (the builder compiles the same text for the
 *   same query), and booleans are bound as 0/1, SQLite's flags.
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type SqliteStatement,
} from 'kysely';
import type { StoreDb, Database as Tables } from './database.js';

type Db = Database.Database;

/** A first-come, first-served lock that waits without blocking the event loop. */
class Gate {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  async take(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

const fileGates = new Map<string, Gate>();
const memoryGates = new WeakMap<Db, Gate>();

function gateOf(db: Db): Gate {
  const found = db.memory ? memoryGates.get(db) : fileGates.get(db.name);
  if (found) return found;
  const gate = new Gate();
  if (db.memory) memoryGates.set(db, gate);
  else fileGates.set(db.name, gate);
  return gate;
}

/** Prepared statements kept per SQL text; a handful of shapes, so the cap is rarely reached. */
const MAX_STATEMENTS = 500;

const bindable = (parameters: readonly unknown[]): unknown[] =>
  parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

function statementsOf(db: Db): { prepare(text: string): SqliteStatement; close(): void } {
  const cache = new Map<string, Database.Statement>();
  return {
    prepare(text: string): SqliteStatement {
      let statement = cache.get(text);
      if (!statement) {
        if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
        statement = db.prepare(text);
        cache.set(text, statement);
      }
      const s = statement;
      return {
        reader: s.reader,
        all: (parameters) => s.all(bindable(parameters)),
        run: (parameters) => s.run(bindable(parameters)),
        iterate: (parameters) => s.iterate(bindable(parameters)),
      };
    },
    // The handle belongs to whoever opened it (the store closes it, or the caller does).
    close() {},
  };
}

class GatedSqliteDriver extends SqliteDriver {
  readonly #gate: Gate;

  constructor(db: Db, statements: ReturnType<typeof statementsOf>) {
    super({ database: statements });
    this.#gate = gateOf(db);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#gate.take();
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    this.#gate.give();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN IMMEDIATE'));
  }
}

class GatedSqliteDialect extends SqliteDialect {
  readonly #db: Db;
  readonly #statements: ReturnType<typeof statementsOf>;

  constructor(db: Db) {
    const statements = statementsOf(db);
    super({ database: statements });
    this.#db = db;
    this.#statements = statements;
  }

  override createDriver() {
    return new GatedSqliteDriver(this.#db, this.#statements);
  }
}

const builders = new WeakMap<Db, StoreDb>();

/** The query builder on `db`: one per handle, shared by every store built on it. */
export function sqliteStoreDb(db: Db): StoreDb {
  let built = builders.get(db);
  if (!built) {
    built = new Kysely<Tables>({ dialect: new GatedSqliteDialect(db) });
    builders.set(db, built);
  }
  return built;
}
