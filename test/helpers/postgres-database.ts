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

/** Which of the run's servers: the embedded one, or the operating system's packaged one. */
export type ServerKind = 'embedded' | 'system';

export interface PostgresServerKind {
  kind: ServerKind;
  /** e.g. "Postgres 15, packaged": names the server in test titles. */
  label: string;
}

/** The servers this run has, for suites that run on each (the packaged one only when there). */
export function testPostgresServers(): PostgresServerKind[] {
  const system = inject('systemPostgres');
  const embedded: PostgresServerKind = {
    kind: 'embedded',
    label: inject('postgresEmbeddedLabel') ?? 'Postgres',
  };
  return system ? [embedded, { kind: 'system', label: system.label }] : [embedded];
}

/** The server's maintenance database, or the reason it did not start. */
export function adminUrl(kind: ServerKind = 'embedded'): string {
  if (kind === 'system') {
    const system = inject('systemPostgres');
    if (!system || system.error)
      throw new Error(system?.error || 'This run has no packaged Postgres server.');
    return system.adminUrl;
  }
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

async function onAdmin<T>(kind: ServerKind, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(kind) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Registers beforeAll/afterAll: call at the top of a test file (or a describe). */
export function usePostgresDatabase(kind: ServerKind = 'embedded'): TestPostgres {
  let url = '';
  let name = '';
  const pools: PgPool[] = [];
  beforeAll(async () => {
    const candidate = `test_${randomBytes(6).toString('hex')}`;
    await onAdmin(kind, (c) => c.query(`CREATE DATABASE ${candidate}`));
    name = candidate;
    const u = new URL(adminUrl(kind));
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
    // FORCE: a connection a failed test left open must not keep the database alive.
    if (name) await onAdmin(kind, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
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
