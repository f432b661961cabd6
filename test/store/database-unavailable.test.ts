/**
 * "The database cannot be used right now" told apart from other errors, on errors the
 * drivers really throw: a refused and a silent Postgres port, a server that cancels a
 * statement or ends a session, pg's own read timeout, an SQLite file another connection
 * holds; and not on a syntax error or a constraint.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorFromTransport } from '../../src/api/error-from-transport.js';
import { BudgetStoreError } from '../../src/api/limiter/budget-store.js';
import {
  asDatabaseUnavailable,
  DatabaseUnavailableError,
  databaseUnavailable,
  databaseUnavailableCode,
  isDatabaseUnavailable,
} from '../../src/store/database-unavailable.js';
import { createPool, withTransaction } from '../../src/store/postgres/create-pool.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import { tempDb } from './temp-db.js';

const database = usePostgresDatabase();

/** The error `run` rejects with (it must reject). */
async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

async function withClient<T>(config: pg.ClientConfig, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.url, ...config });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

describe('Postgres errors', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never says a word, as a server behind a dead link would.
    silent = createServer((s) => sockets.push(s)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
  });
  afterAll(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });

  it('a refused port is unreachable', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const free = (closed.address() as { port: number }).port;
    closed.close();
    await once(closed, 'close');
    const pool = new pg.Pool({ host: '127.0.0.1', port: free, user: 'x', password: 'y', database: 'z' });
    const err = await errorOf(() => pool.query('SELECT 1'));
    await pool.end();
    expect((err as { code?: string }).code).toBe('ECONNREFUSED');
    expect(databaseUnavailableCode(err)).toBe('db_unreachable');
  });

  it('a server that does not answer the connect is a timeout', async () => {
    const port = (silent.address() as { port: number }).port;
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port,
      user: 'x',
      password: 'y',
      database: 'z',
      connectionTimeoutMillis: 100,
    });
    const err = await errorOf(() => pool.query('SELECT 1'));
    await pool.end();
    expect((err as Error).message).toBe('Connection terminated due to connection timeout');
    expect(databaseUnavailableCode(err)).toBe('db_timeout');
  });

  it('a statement cancelled by statement_timeout is a timeout, pg giving up on a read too', async () => {
    const cancelled = await withClient({ statement_timeout: 20 }, (c) =>
      errorOf(() => c.query('SELECT pg_sleep(2)')),
    );
    expect((cancelled as { code?: string }).code).toBe('57014');
    expect(databaseUnavailableCode(cancelled)).toBe('db_timeout');
    const unread = await withClient({ query_timeout: 20 }, (c) =>
      errorOf(() => c.query('SELECT pg_sleep(1)')),
    );
    expect((unread as Error).message).toBe('Query read timeout');
    expect(databaseUnavailableCode(unread)).toBe('db_timeout');
  });

  it('a session the server ends (a shutdown, a restart) is unreachable, and so is what follows', async () => {
    await withClient({}, async (c) => {
      const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const ended = await withClient({}, async (admin) => {
        const gone = once(c, 'error');
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        return (await gone)[0] as unknown;
      });
      expect((ended as { code?: string }).code).toBe('57P01');
      expect(databaseUnavailableCode(ended)).toBe('db_unreachable');
      const after = await errorOf(() => c.query('SELECT 1'));
      expect(isDatabaseUnavailable(after)).toBe(true);
    });
  });

  it('a transaction whose connection the server ends between two statements fails, the process carries on', async () => {
    const pool = createPool(database.url, { max: 2 });
    try {
      const err = await errorOf(() =>
        withTransaction(pool, async (c) => {
          const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
          const ended = new Promise((resolve) => c.once('end', resolve));
          await withClient({}, (admin) => admin.query('SELECT pg_terminate_backend($1)', [pid]));
          // The socket closes with no statement in flight: pg emits 'error' on the client.
          await ended;
          return c.query('SELECT 1');
        }),
      );
      expect(isDatabaseUnavailable(err)).toBe(true);
      // The dead connection went back as broken: the next transaction gets a live one.
      expect(await withTransaction(pool, async (c) => (await c.query('SELECT 1 AS one')).rows[0])).toEqual({
        one: 1,
      });
    } finally {
      await pool.end();
    }
  });

  it('a syntax error or a constraint is no outage', async () => {
    await withClient({}, async (c) => {
      expect(isDatabaseUnavailable(await errorOf(() => c.query('SELEC 1')))).toBe(false);
      await c.query('CREATE TEMP TABLE t (id int PRIMARY KEY)');
      await c.query('INSERT INTO t VALUES (1)');
      const duplicate = await errorOf(() => c.query('INSERT INTO t VALUES (1)'));
      expect((duplicate as { code?: string }).code).toBe('23505');
      expect(asDatabaseUnavailable(duplicate)).toBeUndefined();
    });
  });
});

describe('SQLite errors', () => {
  it('a file another connection holds is locked; a missing table is not', () => {
    const t = tempDb();
    try {
      const holder = t.open();
      const writer = t.open();
      writer.pragma('busy_timeout = 0');
      holder.exec('BEGIN EXCLUSIVE');
      let busy: unknown;
      try {
        writer.exec("INSERT INTO handled_requests (request_key, handled_at_ms) VALUES ('k', 1)");
      } catch (err) {
        busy = err;
      }
      expect((busy as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(databaseUnavailableCode(busy)).toBe('db_locked');
      holder.exec('ROLLBACK');
      let missing: unknown;
      try {
        writer.exec('SELECT * FROM no_such_table');
      } catch (err) {
        missing = err;
      }
      expect(isDatabaseUnavailable(missing)).toBe(false);
    } finally {
      t.close();
    }
  });
});

describe('wrapped errors', () => {
  it('looks through causes (the rate budget around a driver error) and aggregates', () => {
    const driver = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const budget = new BudgetStoreError('The rate budget could not grant a request.', driver);
    expect(databaseUnavailableCode(budget)).toBe('db_locked');
    expect(databaseUnavailableCode(new AggregateError([new Error('x'), budget]))).toBe('db_locked');
    expect(databaseUnavailableCode(new Error('nothing to do with it'))).toBeUndefined();
    expect(databaseUnavailableCode('a string')).toBeUndefined();
  });

  it("does not look into an API error: a service that cannot be reached is the service's news", () => {
    const socket = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
    const api = errorFromTransport(socket, 'GET /ai-pages', undefined);
    expect(databaseUnavailableCode(api)).toBeUndefined();
    expect(databaseUnavailableCode(new AggregateError([api]))).toBeUndefined();
    expect(isDatabaseUnavailable(socket)).toBe(true);
  });

  it('wraps an outage once, keeping its cause and code', () => {
    const driver = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = asDatabaseUnavailable(driver)!;
    expect(wrapped).toBeInstanceOf(DatabaseUnavailableError);
    expect(wrapped.code).toBe('db_unreachable');
    expect(wrapped.cause).toBe(driver);
    expect(wrapped.message).toBe('The database cannot be reached (connect ECONNREFUSED 127.0.0.1:5432).');
    expect(asDatabaseUnavailable(wrapped)).toBe(wrapped);
    const ours = databaseUnavailable('db_timeout', 'a call took over 1000 ms');
    expect(ours.message).toBe('The database did not answer in time: a call took over 1000 ms.');
    expect(isDatabaseUnavailable(ours)).toBe(true);
  });
});
