/**
 * The table copier under migrate-store: each SQLite value as its Postgres column's type
 * takes it, or a coded error naming the table and column; tables only Postgres has count
 * as data (a replica wrote there) and are emptied by `replace`, never skipped silently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../../src/store/migrations/index.js';
import { type Db, openDatabase } from '../../../src/store/open-database.js';
import {
  copySqliteToPostgres,
  type PgColumn,
  StoreCopyError,
  toPostgres,
} from '../../../src/store/postgres/copy-sqlite-to-postgres.js';
import type { PgPool } from '../../../src/store/postgres/create-pool.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

const column = (type: string): PgColumn => ({ name: 'c', type, identity: false });
const convert = (value: unknown, type: string) => toPostgres(value, column(type), 't');
const failure = (value: unknown, type: string) => {
  try {
    convert(value, type);
  } catch (err) {
    return err instanceof StoreCopyError ? `${err.code}: ${err.message}` : String(err);
  }
  return 'no error';
};

describe('toPostgres', () => {
  it('converts by the Postgres column type', () => {
    expect(convert(null, 'boolean')).toBeNull();
    expect(convert(1n, 'boolean')).toBe(true);
    expect(convert(0n, 'boolean')).toBe(false);
    expect(convert(2, 'boolean')).toBe(true);
    expect(convert('{"a":"x\\u0000y"}', 'jsonb')).toBe('{"a":"x\ufffdy"}');
    expect(convert('[1,2]', 'json')).toBe('[1,2]');
    expect(convert(42n, 'jsonb')).toBe('42');
    expect(convert(9_007_199_254_740_993n, 'bigint')).toBe('9007199254740993');
    expect(convert(7, 'integer')).toBe('7');
    expect(convert(' -12 ', 'smallint')).toBe('-12');
    expect(convert(3n, 'double precision')).toBe(3);
    expect(convert(0.1, 'real')).toBe(0.1);
    expect(convert('a\u0000b', 'text')).toBe('a\ufffdb');
    expect(convert(5n, 'text')).toBe('5');
    expect(convert(2.5, 'text')).toBe('2.5');
  });

  it('refuses what the column cannot hold, naming table and column', () => {
    expect(failure('yes', 'boolean')).toBe(
      'copy_bad_value: t.c: expected 0 or 1, found string; nothing was copied.',
    );
    expect(failure('{oops', 'jsonb')).toBe(
      'copy_bad_value: t.c: a row holds text that is not valid JSON; nothing was copied.',
    );
    expect(failure(Buffer.from('x'), 'jsonb')).toContain('expected JSON text, found object');
    expect(failure(1.5, 'bigint')).toContain('expected a whole number, found 1.5');
    expect(failure('12a', 'integer')).toContain('expected a whole number, found string');
    expect(failure('1', 'double precision')).toContain('expected a number, found string');
    expect(failure(Buffer.from('x'), 'text')).toContain('cannot store a binary value as text');
  });
});

describe('copySqliteToPostgres', () => {
  const database = usePostgresDatabase();
  let pool: PgPool;
  let dir = '';
  let db: Db;
  beforeEach(async () => {
    pool = database.pool();
    await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await migratePostgres(pool, migrations);
    dir = mkdtempSync(join(tmpdir(), 'copy-store-'));
    db = openDatabase(join(dir, 'visibility.db'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts rows in a table only Postgres has as data, and empties it with replace', async () => {
    await pool.query('CREATE TABLE replica_notes (note text NOT NULL)');
    await pool.query("INSERT INTO replica_notes VALUES ('written by a replica')");
    db.prepare(
      "INSERT INTO channel_defaults (channel_id, brand_id, set_by, set_at_ms) VALUES ('C1', 'b1', 'U1', 1)",
    ).run();

    const refused = await copySqliteToPostgres(db, pool).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreCopyError);
    expect((refused as StoreCopyError).code).toBe('copy_target_not_empty');
    expect((refused as StoreCopyError).tables).toEqual(['replica_notes']);

    const result = await copySqliteToPostgres(db, pool, { replace: true });
    expect(result.replaced).toBe(true);
    expect(result.onlyInPostgres).toEqual(['replica_notes']);
    expect(result.tables.find((t) => t.table === 'channel_defaults')?.rows).toBe(1);
    expect((await pool.query('SELECT * FROM replica_notes')).rows).toEqual([]);
  });

  it('copies in small batches as in one, rows and identities alike', async () => {
    const insert = db.prepare(
      "INSERT INTO audit_log (at_ms, user_id, action, detail, result) VALUES (?, 'U1', 'subscribe', ?, 'ok')",
    );
    for (let i = 0; i < 7; i++) insert.run(i, JSON.stringify({ i }));
    db.prepare('DELETE FROM audit_log WHERE at_ms = 6').run();
    const result = await copySqliteToPostgres(db, pool, { batchRows: 2 });
    expect(result.tables.find((t) => t.table === 'audit_log')?.rows).toBe(6);
    const { rows } = await pool.query<{ id: number; detail: { i: number } }>(
      'SELECT id, detail FROM audit_log ORDER BY id',
    );
    expect(rows.map((r) => [r.id, r.detail.i])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4],
      [6, 5],
    ]);
    // SQLite handed out id 7 before its row was deleted: Postgres goes on after it.
    const next = await pool.query<{ id: number }>(
      "INSERT INTO audit_log (at_ms, user_id, action, result) VALUES (9, 'U1', 'x', 'ok') RETURNING id",
    );
    expect(next.rows[0]?.id).toBe(8);
  });
});
