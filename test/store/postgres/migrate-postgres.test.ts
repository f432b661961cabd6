/**
 * The Postgres schema on a real server: it applies on an empty database, a second run
 * applies nothing, runners started together apply each migration once, a failing
 * migration leaves nothing half-made, and the tables and columns are SQLite's.
 */
import { describe, expect, it } from 'vitest';
import type { Migration } from '../../../src/store/migrate.js';
import { migrations } from '../../../src/store/migrations/index.js';
import { openDatabase } from '../../../src/store/open-database.js';
import { createPool } from '../../../src/store/postgres/create-pool.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { openPostgres } from '../../../src/store/postgres/open-postgres.js';
import { PostgresError } from '../../../src/store/postgres/postgres-errors.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

const pg = usePostgresDatabase();
const latest = migrations.length;

async function tablesOf(url: string): Promise<Map<string, string[]>> {
  const pool = createPool(url, { max: 1 });
  try {
    const { rows } = await pool.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    );
    const tables = new Map<string, string[]>();
    for (const r of rows) tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
    return tables;
  } finally {
    await pool.end();
  }
}

describe('Postgres migrations', () => {
  it('apply on an empty database, then a second run applies nothing', async () => {
    const pool = pg.pool();
    const first = await migratePostgres(pool, migrations);
    expect(first).toEqual({ version: latest, applied: migrations.map((m) => m.version) });

    const second = await migratePostgres(pool, migrations);
    expect(second).toEqual({ version: latest, applied: [] });
    const { rows } = await pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
  });

  it('make the same tables and columns as the SQLite migrations', async () => {
    await openPostgres(pg.url).then(({ pool }) => pool.end());
    const pgTables = await tablesOf(pg.url);
    pgTables.delete('schema_migrations');

    const sqlite = openDatabase(':memory:');
    try {
      const names = sqlite
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all()
        .map((r) => r.name);
      const sqliteTables = new Map(
        names.map((n) => [
          n,
          sqlite
            .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${n}')`)
            .all()
            .map((c) => c.name),
        ]),
      );
      // SQLite's implicit rowid identifies a rate_sends row; Postgres needs a real column.
      sqliteTables.set('rate_sends', ['id', ...(sqliteTables.get('rate_sends') ?? [])]);
      expect(Object.fromEntries(pgTables)).toEqual(Object.fromEntries(sqliteTables));
    } finally {
      sqlite.close();
    }
  });

  it('apply each migration once when several replicas start together', async () => {
    // Empty again, so the racers really have work to share.
    const pool = pg.pool();
    await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    // Each runner has its own pool, as each replica would; a slow first migration keeps
    // the lock held while the others arrive.
    const slow: Migration[] = migrations.map((m) =>
      m.version === 1 ? { ...m, postgres: `SELECT pg_sleep(0.3); ${m.postgres}` } : m,
    );
    const runners = Array.from({ length: 4 }, () => pg.pool({ max: 1 }));
    const results = await Promise.all(runners.map((p) => migratePostgres(p, slow)));

    const appliedBy = results.map((r) => r.applied.length);
    expect(appliedBy.filter((n) => n === latest)).toHaveLength(1);
    expect(appliedBy.filter((n) => n === 0)).toHaveLength(3);
    for (const r of results) expect(r.version).toBe(latest);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(rows[0]?.n).toBe(latest);
  });

  it('roll a failing migration back whole, keep the ones before it, and name it', async () => {
    const pool = pg.pool();
    await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const broken: Migration[] = [
      migrations[0]!,
      {
        version: 2,
        name: 'broken',
        sqlite: '',
        postgres: 'CREATE TABLE half_made (id int); SELECT no_such_column FROM half_made;',
      },
    ];
    const err = await migratePostgres(pool, broken, { databaseUrl: pg.url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PostgresError);
    expect((err as PostgresError).code).toBe('pg_migration_failed');
    expect((err as Error).message).toMatch(
      /migration 2 \(broken\) failed on 127\.0\.0\.1:\d+\/test_\w+: column "no_such_column"/,
    );
    expect((err as Error).message).not.toContain(new URL(pg.url).password);

    const tables = await tablesOf(pg.url);
    expect(tables.has('half_made')).toBe(false);
    expect(tables.has('rate_buckets')).toBe(true);
    const { rows } = await pool.query('SELECT version FROM schema_migrations');
    expect(rows).toEqual([{ version: 1 }]);

    // The lock was given back: a fixed list runs to the end.
    const fixed = await migratePostgres(pool, migrations);
    expect(fixed.applied).toEqual(migrations.slice(1).map((m) => m.version));
  });

  it('refuses a list with a gap', async () => {
    const gap = [migrations[0]!, { ...migrations[2]! }];
    await expect(migratePostgres(pg.pool(), gap)).rejects.toMatchObject({ code: 'pg_migrations_invalid' });
  });
});
