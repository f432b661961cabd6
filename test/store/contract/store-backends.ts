/**
 * One contract suite, every backend: a repository's behaviour is written once and run on
 * SQLite and on each real Postgres server the run has (test/helpers/postgres-server.ts:
 * the embedded one, and the operating system's packaged one where installed), the way
 * undici runs one cache-store suite over its memory and SQLite stores. A contract file
 * calls `describeBackends(title, (b) => { … })`; `b()` inside hooks and tests gives the
 * current test's backend: a fresh, migrated SQLite file, or this file's Postgres database
 * emptied of every row, ids starting again at 1, so tests never see each other's rows.
 *
 * `b().store()` is the Store on that backend, built as the bot builds it; `exec` and `rows`
 * run a statement written with `?` placeholders on either backend, for what a test must
 * set up or check beneath the repositories.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { createSqliteStore } from '../../../src/store/create-sqlite-store.js';
import { type Db, openDatabase } from '../../../src/store/open-database.js';
import type { PgPool } from '../../../src/store/postgres/create-pool.js';
import { createPostgresStore } from '../../../src/store/postgres/create-postgres-store.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import type { Store, StoreOptions } from '../../../src/store/store.js';
import type { RunInTransaction } from '../../../src/store/transaction.js';
import {
  type PostgresServerKind,
  testPostgresServers,
  usePostgresDatabase,
} from '../../helpers/postgres-database.js';

interface BackendCommon {
  /** The Store on this connection (a new one each call: options differ per test). */
  store(options?: StoreOptions): Store;
  readonly transaction: RunInTransaction;
  /** The same database through another connection, as another process or replica has it. */
  other(): TestBackend;
  /** Runs a statement written with `?` placeholders. */
  exec(sql: string, ...params: unknown[]): Promise<void>;
  /** The rows of a query written with `?` placeholders. */
  rows<R>(sql: string, ...params: unknown[]): Promise<R[]>;
}

export type TestBackend =
  | (BackendCommon & { readonly kind: 'sqlite'; readonly db: Db })
  | (BackendCommon & { readonly kind: 'postgres'; readonly pool: PgPool });

const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

function onSqlite(db: Db, other: () => TestBackend): TestBackend {
  const store = (options: StoreOptions = {}) => createSqliteStore(db, { closesDatabase: false, ...options });
  return {
    kind: 'sqlite',
    db,
    store,
    transaction: store().transaction,
    other,
    exec: async (sql, ...params) => void db.prepare(sql).run(...params),
    rows: async <R>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as R[],
  };
}

function onPostgres(pool: PgPool, other: () => TestBackend): TestBackend {
  const store = (options: StoreOptions = {}) =>
    createPostgresStore(pool, { closesDatabase: false, ...options });
  return {
    kind: 'postgres',
    pool,
    store,
    transaction: store().transaction,
    other,
    exec: async (sql, ...params) => void (await pool.query(numbered(sql), params)),
    rows: async <R>(sql: string, ...params: unknown[]) =>
      (await pool.query(numbered(sql), params)).rows as R[],
  };
}

function describeSqlite(title: string, body: (backend: () => TestBackend) => void): void {
  describe(`${title} (SQLite)`, () => {
    let current: TestBackend | undefined;
    let dir = '';
    const opened: Db[] = [];
    const open = (path: string): TestBackend => {
      const db = openDatabase(path);
      opened.push(db);
      return onSqlite(db, () => open(path));
    };
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'contract-'));
      current = open(join(dir, 'visibility.db'));
    });
    afterEach(() => {
      for (const db of opened.splice(0)) db.close();
      current = undefined;
      rmSync(dir, { recursive: true, force: true });
    });
    body(() => {
      if (!current) throw new Error('the backend exists only inside tests and hooks');
      return current;
    });
  });
}

function describePostgres(
  title: string,
  server: PostgresServerKind,
  body: (backend: () => TestBackend) => void,
): void {
  describe(`${title} (${server.label})`, () => {
    const database = usePostgresDatabase(server.kind);
    let pool: PgPool | undefined;
    let emptying = '';
    beforeAll(async () => {
      pool = database.pool();
      await migratePostgres(pool);
      const { rows } = await pool.query<{ statement: string }>(
        `SELECT format('DELETE FROM %I', tablename) AS statement FROM pg_tables
          WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'
         UNION ALL
         SELECT format('SELECT setval(%L, 1, false)', quote_ident(schemaname) || '.' || quote_ident(sequencename))
           FROM pg_sequences WHERE schemaname = current_schema()`,
      );
      emptying = rows.map((r) => `${r.statement};`).join('\n');
    });
    // Other connections (replicas, another process) are pools made once per file and handed
    // out again from the first each test: a new pool per call would log in anew each time.
    const others: PgPool[] = [];
    let handedOut = 0;
    // DELETE, not TRUNCATE: the tables hold a few rows, and TRUNCATE makes new files for
    // every table and index, which costs each test far more than emptying them.
    beforeEach(async () => {
      handedOut = 0;
      await pool!.query(emptying);
    });
    const other = (): TestBackend => {
      if (handedOut === others.length) others.push(database.pool());
      return on(others[handedOut++]!);
    };
    const on = (p: PgPool): TestBackend => onPostgres(p, other);
    body(() => {
      if (!pool) throw new Error('the backend exists only inside tests and hooks');
      return on(pool);
    });
  });
}

export function describeBackends(title: string, body: (backend: () => TestBackend) => void): void {
  describeSqlite(title, body);
  for (const server of testPostgresServers()) describePostgres(title, server, body);
}
