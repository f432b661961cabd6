/**
 * The pool the Postgres repositories share, on the real test server: bigint columns come
 * back as numbers (epoch ms), a transaction commits or rolls back whole, a dead connection
 * does not crash the process, and messages about the database never carry its password.
 */
import { describe, expect, it } from 'vitest';
import { createPool, withTransaction } from '../../../src/store/postgres/create-pool.js';
import { describeDatabaseUrl, withoutPassword } from '../../../src/store/postgres/postgres-errors.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

const pg = usePostgresDatabase();

describe('createPool', () => {
  it('reads bigint as numbers, leaves numeric alone, and names itself to the server', async () => {
    const pool = pg.pool({ applicationName: 'visibility-bot-test' });
    const { rows } = await pool.query<{ ms: unknown; big: unknown; dec: unknown; app: unknown }>(
      "SELECT 1772409600000::bigint AS ms, '9007199254740991'::bigint AS big, 1.25::numeric AS dec, current_setting('application_name') AS app",
    );
    expect(rows[0]).toEqual({
      ms: 1772409600000,
      big: Number.MAX_SAFE_INTEGER,
      dec: '1.25',
      app: 'visibility-bot-test',
    });
  });

  it('sets a statement timeout, so a stuck query fails instead of holding a connection', async () => {
    const pool = pg.pool({ statementTimeoutMillis: 100 });
    await expect(pool.query('SELECT pg_sleep(2)')).rejects.toThrow(/statement timeout/);
  });

  it('survives a connection the server ends while idle, and hands the error to onIdleError', async () => {
    const seen: Error[] = [];
    const pool = pg.pool({ max: 1, onIdleError: (err) => seen.push(err) });
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = createPool(pg.url, { max: 1 });
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await expect.poll(() => seen.length, { timeout: 5000 }).toBe(1);
    // The pool opens a new connection for the next query.
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('without onIdleError, a connection ended while idle still does not crash the process', async () => {
    const pool = pg.pool({ max: 1 });
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = createPool(pg.url, { max: 1 });
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    // pg emits 'error' on the pool; with no listener that would throw out of the event loop.
    await expect.poll(() => pool.totalCount, { timeout: 5000 }).toBe(0);
    expect((await pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });
});

describe('withTransaction', () => {
  it('commits what the function wrote, and rolls everything back when it throws', async () => {
    const pool = pg.pool();
    await pool.query('CREATE TABLE tx_probe (n int)');
    const result = await withTransaction(pool, async (c) => {
      await c.query('INSERT INTO tx_probe VALUES (1)');
      return 'done';
    });
    expect(result).toBe('done');
    const boom = new Error('boom');
    await expect(
      withTransaction(pool, async (c) => {
        await c.query('INSERT INTO tx_probe VALUES (2)');
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect((await pool.query('SELECT n FROM tx_probe')).rows).toEqual([{ n: 1 }]);
    // Every connection went back to the pool, none left inside a transaction.
    expect(pool.idleCount).toBe(pool.totalCount);
  });
});

describe('messages about DATABASE_URL', () => {
  const url = 'postgres://bot:p%40ss%2Fw0rd-long@db.internal:6543/visibility';

  it('say where the database is, without who or the password', () => {
    expect(describeDatabaseUrl(url)).toBe('db.internal:6543/visibility');
    expect(describeDatabaseUrl('postgresql://db.internal')).toBe('db.internal:5432/(default database)');
    expect(describeDatabaseUrl('not a url')).toBe('the database in DATABASE_URL');
  });

  it('cut the password out, as written and decoded', () => {
    const text = 'failed for p%40ss%2Fw0rd-long (decoded p@ss/w0rd-long)';
    expect(withoutPassword(text, url)).toBe('failed for [redacted] (decoded [redacted])');
    expect(withoutPassword(text, 'postgres://db.internal/x')).toBe(text);
    expect(withoutPassword(text, 'not a url')).toBe(text);
  });
});
