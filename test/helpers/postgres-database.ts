/**
 * A fresh database on the run's test Postgres server (test/helpers/postgres-server.ts) for
 * one test file: created before its tests, dropped after them, so files run in parallel
 * without seeing each other's rows. When the server did not start, the file fails with
 * the reason (never skipped).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPool, type PgPool, type PoolOptions } from '../../src/store/postgres/create-pool.js';

export interface TestPostgres {
  /** postgres://… of this file's database. */
  readonly url: string;
  /** A pool on this file's database (a replica would have its own); ended after the file. */
  pool(options?: PoolOptions): PgPool;
}

/** The server's maintenance database, or the reason it did not start. */
export function adminUrl(): string {
  const error = inject('postgresStartError');
  const url = inject('postgresAdminUrl');
  if (error || !url) {
    throw new Error(
      error ||
        'The test Postgres server was not started: is test/helpers/postgres-server.ts a globalSetup in vitest.config.ts?',
    );
  }
  return url;
}

async function onAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Registers beforeAll/afterAll: call at the top of a test file (or a describe). */
export function usePostgresDatabase(): TestPostgres {
  let url = '';
  let name = '';
  const pools: PgPool[] = [];
  beforeAll(async () => {
    const candidate = `test_${randomBytes(6).toString('hex')}`;
    await onAdmin((c) => c.query(`CREATE DATABASE ${candidate}`));
    name = candidate;
    const u = new URL(adminUrl());
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
    // FORCE: a connection a failed test left open must not keep the database alive.
    if (name) await onAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  return {
    get url() {
      if (!url) throw new Error('usePostgresDatabase(): the database exists only inside tests and hooks');
      return url;
    },
    pool(options) {
      const p = createPool(this.url, { max: 4, ...options });
      pools.push(p);
      return p;
    },
  };
}
