/**
 * One contract suite, two backends: a repository's behaviour is written once and run on
 * SQLite and on a real Postgres server (test/helpers/postgres-server.ts), the way undici
 * runs one cache-store suite over its memory and SQLite stores. A contract file calls
 * `describeBackends(title, (b) => { … })`; `b()` inside hooks and tests gives the current
 * test's backend: a fresh, migrated SQLite file, or this file's Postgres database emptied
 * of every row (TRUNCATE … RESTART IDENTITY), so tests never see each other's rows.
 *
 * Repositories are built per backend by the contract file itself (the SQLite and the
 * Postgres constructor side by side), with `b().transaction` the backend's transaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { type Db, openDatabase } from '../../../src/store/open-database.js';
import type { PgPool } from '../../../src/store/postgres/create-pool.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { postgresMigrations } from '../../../src/store/postgres/migrations/index.js';
import { pgTransaction } from '../../../src/store/postgres/pg-transaction.js';
import { type RunInTransaction, transaction } from '../../../src/store/transaction.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

interface BackendCommon {
  readonly transaction: RunInTransaction;
  /** The same database through another connection, as another process or replica has it. */
  other(): TestBackend;
}

export type TestBackend =
  | (BackendCommon & { readonly kind: 'sqlite'; readonly db: Db })
  | (BackendCommon & { readonly kind: 'postgres'; readonly pool: PgPool });

export function describeBackends(title: string, body: (backend: () => TestBackend) => void): void {
  describe(`${title} (SQLite)`, () => {
    let current: TestBackend | undefined;
    let dir = '';
    const opened: Db[] = [];
    const open = (path: string): TestBackend => {
      const db = openDatabase(path);
      opened.push(db);
      return { kind: 'sqlite', db, transaction: (fn) => transaction(db, fn), other: () => open(path) };
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

  describe(`${title} (Postgres)`, () => {
    const database = usePostgresDatabase();
    let pool: PgPool | undefined;
    let tables: string[] = [];
    beforeAll(async () => {
      pool = database.pool();
      await migratePostgres(pool, postgresMigrations);
      const { rows } = await pool.query<{ name: string }>(
        `SELECT quote_ident(tablename) AS name FROM pg_tables
          WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
      );
      tables = rows.map((r) => r.name);
    });
    beforeEach(async () => {
      if (tables.length > 0) await pool!.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
    });
    const on = (p: PgPool): TestBackend => ({
      kind: 'postgres',
      pool: p,
      transaction: (fn) => pgTransaction(p, fn),
      other: () => on(database.pool()),
    });
    body(() => {
      if (!pool) throw new Error('the backend exists only inside tests and hooks');
      return on(pool);
    });
  });
}
