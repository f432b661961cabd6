/**
 * The redelivery filter when the database cannot be used (a real SQLite file another
 * connection locks): a request is let through once (its handler answers that nothing was
 * changed) and its redelivery dropped, and once the database answers again the request is
 * written there, so a redelivery reaching another process afterwards is dropped too.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabaseHealth, type DatabaseHealth } from '../../src/database-health.js';
import { guardStore } from '../../src/guard-store.js';
import { createRedeliveryFilter } from '../../src/slack/redelivery-filter.js';
import { sqliteWriteProbe } from '../../src/sqlite-write-probe.js';
import type { Db } from '../../src/store/open-database.js';
import { createPool } from '../../src/store/postgres/create-pool.js';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { manualClock } from '../helpers/manual-clock.js';
import { captureLogger, type LogLine } from '../jobs/job-fixture.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

const NOW = Date.parse('2026-11-24T09:00:00Z');
let t: TempDb;
let holder: Db;
let health: DatabaseHealth;
let store: Store;
let logs: LogLine[];
let elapsed = 0;

beforeEach(() => {
  t = tempDb();
  holder = t.open();
  t.db.pragma('busy_timeout = 20');
  logs = [];
  elapsed = 0;
  const logger = captureLogger(logs);
  health = createDatabaseHealth({
    backend: 'sqlite',
    probe: sqliteWriteProbe(t.db, { waitMs: 10 }),
    clock: manualClock(NOW),
    logger,
    elapsedMs: () => elapsed,
  });
  store = guardStore(t.store, health);
});

afterEach(() => {
  health.close();
  t.close();
});

const filter = () =>
  createRedeliveryFilter({
    handledRequests: store.handledRequests,
    database: health,
    logger: captureLogger(logs),
  });

describe('the redelivery filter while the database cannot be used', () => {
  it('lets a request through once, drops its redelivery, and records it when the database is back', async () => {
    const f = filter();
    holder.exec('BEGIN EXCLUSIVE');
    expect(await f.isRedelivery('command:T1', undefined, NOW)).toBe(false);
    expect(health.snapshot().reachable).toBe(false);
    // Slack's retry of it, still during the outage: dropped.
    expect(await f.isRedelivery('command:T1', 1, NOW + 3000)).toBe(true);
    // Another request is still let through.
    expect(await f.isRedelivery('command:T2', undefined, NOW + 4000)).toBe(false);
    holder.exec('ROLLBACK');
    elapsed += 1000;
    await health.check();
    await expect
      .poll(() => holder.prepare('SELECT request_key FROM handled_requests ORDER BY 1').all())
      .toEqual([{ request_key: 'command:T1' }, { request_key: 'command:T2' }]);
    // A retry reaching another process (a replica, or this one restarted): dropped there too.
    expect(await filter().isRedelivery('command:T1', 2, NOW + 60_000)).toBe(true);
    // And here, once the database answers, as before the outage.
    expect(await f.isRedelivery('command:T2', 1, NOW + 61_000)).toBe(true);
    expect(await f.isRedelivery('command:T3', undefined, NOW + 62_000)).toBe(false);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('lets a request through when the database does not answer within its share of the 3 s', async () => {
    // A Postgres port that accepts connections and never answers (a dead link).
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const pool = createPool(`postgres://u:p@127.0.0.1:${(silent.address() as { port: number }).port}/db`, {
      connectionTimeoutMillis: 60_000,
    });
    const pgStore = createPostgresStore(pool, { closesDatabase: false });
    const hung = createDatabaseHealth({
      backend: 'postgres',
      probe: () => pgStore.ping(),
      clock: manualClock(NOW),
      logger: captureLogger(logs),
    });
    try {
      const f = createRedeliveryFilter({
        handledRequests: guardStore(createPostgresStore(pool, { closesDatabase: false }), hung)
          .handledRequests,
        database: hung,
        logger: captureLogger(logs),
      });
      expect(await f.isRedelivery('command:T9', undefined, NOW)).toBe(false);
      expect(hung.snapshot()).toMatchObject({ reachable: false, reason: 'db_timeout' });
    } finally {
      hung.close();
      silent.close();
      void pool.end().catch(() => {});
    }
  });
});
