/**
 * The SQLite file locked under a running `serve` (another connection holds an exclusive
 * transaction, as a backup tool or a stray `sqlite3` shell would) and released: the
 * scenario in outage-harness.ts, as for a Postgres outage. Reads of the file still work
 * meanwhile (WAL), but every write waits for the lock, so the bot says it cannot use its
 * database, and within 3 s: its busy wait is short, and once one write found the file
 * locked the others are refused at once.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';
import { type OutageServe, runOutageScenario, spawnReadyServe } from './outage-harness.js';
import { type Backends, startBackends } from './service-harness.js';

const CHANNEL = 'COUTAGESQL';
let backends: Backends;
let serve: OutageServe;

beforeAll(async () => {
  backends = await startBackends();
  backends.slack.addChannel({ id: CHANNEL, name: 'outage', isMember: true });
  serve = await spawnReadyServe(backends, {});
}, 120_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await backends?.slack.close();
  await backends?.sim.close();
  if (backends?.dir) rmSync(backends.dir, { recursive: true, force: true });
});

async function withStore<T>(fn: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = createSqliteStore(openDatabase(backends.env['DATABASE_PATH']!));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('the SQLite file locked under a running serve', () => {
  it('answers every command and click within 3 s, drains, and recovers with nothing lost or doubled', async () => {
    let lock: Database.Database | undefined;
    const answered = await runOutageScenario({
      backends,
      serve,
      backend: 'sqlite',
      channel: CHANNEL,
      enqueueAlert: (dedupeKey, text, sendAfterMs) =>
        withStore(async (s) => {
          await s.outbox().enqueue({
            dedupeKey,
            channelId: CHANNEL,
            brandId: null,
            kind: 'alert',
            payload: { text },
            nowMs: Date.now(),
            sendAfterMs,
          });
        }),
      outboxRow: (key) => withStore((s) => s.outbox().getByDedupeKey(key)),
      async beginOutage() {
        lock = new Database(backends.env['DATABASE_PATH']!);
        // Waits for a write serve may be in the middle of, then holds the file.
        lock.pragma('busy_timeout = 10000');
        lock.exec('BEGIN EXCLUSIVE');
      },
      async endOutage() {
        lock?.exec('ROLLBACK');
        lock?.close();
      },
    });
    expect(answered).toHaveLength(5);
  }, 90_000);
});
