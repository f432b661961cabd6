/**
 * The database's health as the process sees it, on a real SQLite file that another
 * connection locks (as a second process would): the guarded store fails once with the
 * outage and then refuses at once without touching the file, the probe finds the lock and
 * its end, listeners hear both, owed writes land in order once the file is free, and the
 * outage is logged once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDatabaseHealth,
  type DatabaseHealth,
  type DatabaseHealthSnapshot,
} from '../src/database-health.js';
import { guardStore } from '../src/guard-store.js';
import { sqliteWriteProbe } from '../src/sqlite-write-probe.js';
import { DatabaseUnavailableError } from '../src/store/database-unavailable.js';
import type { Db } from '../src/store/open-database.js';
import type { Store } from '../src/store/store.js';
import { manualClock } from './helpers/manual-clock.js';
import { captureLogger, type LogLine } from './jobs/job-fixture.js';
import { type TempDb, tempDb } from './store/temp-db.js';

let t: TempDb;
let holder: Db;
let logs: LogLine[];
let elapsed: number;
let health: DatabaseHealth;
let store: Store;
let changes: DatabaseHealthSnapshot[];
const clock = manualClock(Date.parse('2026-11-24T09:00:00Z'));

beforeEach(() => {
  t = tempDb();
  holder = t.open();
  // The store's own connection waits only briefly for a lock (as open-database's default does).
  t.db.pragma('busy_timeout = 20');
  logs = [];
  elapsed = 0;
  changes = [];
  health = createDatabaseHealth({
    backend: 'sqlite',
    probe: sqliteWriteProbe(t.db, { waitMs: 10 }),
    clock,
    logger: captureLogger(logs),
    retryEveryMs: 1000,
    elapsedMs: () => elapsed,
  });
  health.onChange((s) => changes.push(s));
  store = guardStore(t.store, health);
});

afterEach(() => {
  health.close();
  t.close();
});

const useBrand = (brandId: string) => ({ channelId: 'C1', brandId, setBy: 'U1', atMs: clock.now() });
const lock = () => holder.exec('BEGIN EXCLUSIVE');
const unlock = () => holder.exec('ROLLBACK');
const outageLogs = () => logs.filter((l) => l.msg.startsWith('the database cannot be used right now'));

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('database health', () => {
  it('turns down on a locked write, refuses at once after, and is up again when a probe finds the file free', async () => {
    await store.channelDefaults.set(useBrand('brand-1'));
    lock();
    // Reads go on under the lock (WAL): no outage.
    expect(await store.channelDefaults.get('C1')).toBe('brand-1');
    const first = await rejection(store.channelDefaults.set(useBrand('brand-2')));
    expect(first).toBeInstanceOf(DatabaseUnavailableError);
    expect((first as DatabaseUnavailableError).code).toBe('db_locked');
    expect(health.snapshot()).toMatchObject({ backend: 'sqlite', reachable: false, reason: 'db_locked' });
    expect(changes).toHaveLength(1);

    // Refused without touching the file: even a read, which would have worked.
    let touched = false;
    const refused = await rejection(
      health.call(() => {
        touched = true;
        return 1;
      }),
    );
    expect(touched).toBe(false);
    expect((refused as Error).message).toBe(
      'The database is locked by another connection: not tried again until a probe finds it usable.',
    );

    // A probe a second later still finds the lock; the state stays down, logged once.
    elapsed += 1000;
    expect((await health.check()).reachable).toBe(false);
    unlock();
    elapsed += 1000;
    // The next call probes first, finds the file free and goes through.
    await store.channelDefaults.set(useBrand('brand-3'));
    expect(health.snapshot()).toMatchObject({ reachable: true, reason: null });
    expect(await store.channelDefaults.get('C1')).toBe('brand-3');
    expect(changes.map((c) => c.reachable)).toEqual([false, true]);
    expect(outageLogs()).toHaveLength(1);
    expect(logs.filter((l) => l.msg.startsWith('the database answers again'))).toHaveLength(1);
  });

  it('writes what is owed once the database answers again, in order', async () => {
    lock();
    await rejection(store.handledRequests.remember('a', 1, 60_000));
    for (const key of ['a', 'b', 'c'])
      health.owe('a handled request', () => store.handledRequests.remember(key, 1, 60_000));
    unlock();
    elapsed += 1000;
    await health.check();
    await expect
      .poll(() => holder.prepare('SELECT request_key FROM handled_requests').all())
      .toEqual([{ request_key: 'a' }, { request_key: 'b' }, { request_key: 'c' }]);
  });

  it('keeps at most maxOwed writes, dropping the oldest, and a listener that throws does not silence the others', async () => {
    const capped = createDatabaseHealth({
      backend: 'sqlite',
      probe: sqliteWriteProbe(t.db, { waitMs: 10 }),
      clock,
      logger: captureLogger(logs),
      retryEveryMs: 1000,
      maxOwed: 2,
      elapsedMs: () => elapsed,
    });
    const heard: boolean[] = [];
    capped.onChange(() => {
      throw new Error('a broken listener');
    });
    capped.onChange((s) => heard.push(s.reachable));
    const guarded = guardStore(t.store, capped);
    try {
      lock();
      await rejection(guarded.handledRequests.remember('x', 1, 60_000));
      for (const key of ['a', 'b', 'c'])
        capped.owe('a handled request', () => guarded.handledRequests.remember(key, 1, 60_000));
      expect(logs.filter((l) => l.msg.startsWith('too many database writes owed'))).toHaveLength(1);
      unlock();
      elapsed += 1000;
      await capped.check();
      await expect
        .poll(() => holder.prepare('SELECT request_key FROM handled_requests ORDER BY request_key').all())
        .toEqual([{ request_key: 'b' }, { request_key: 'c' }]);
      expect(heard).toEqual([false, true]);
      expect(logs.filter((l) => l.msg === 'a database health listener failed')).toHaveLength(2);
    } finally {
      capped.close();
    }
  });

  it('turns down when a call passes its deadline, and reports since when', async () => {
    const never = new Promise<never>(() => {});
    const late = await rejection(health.call(() => never, { deadlineMs: 5 }));
    expect((late as DatabaseUnavailableError).code).toBe('db_timeout');
    expect(health.snapshot()).toMatchObject({
      reachable: false,
      reason: 'db_timeout',
      since: new Date(clock.now()).toISOString(),
    });
    clock.advance(90_000);
    expect(health.snapshot().downForSeconds).toBe(90);
  });

  it('guards transactions and every repository, and hands the SQLite handle through', async () => {
    expect((store as unknown as { db: Db }).db).toBe(t.db);
    lock();
    const refused = await rejection(store.transaction(async () => store.subscriptions.listAll()));
    expect((refused as DatabaseUnavailableError).code).toBe('db_locked');
    expect(await rejection(store.outbox().nextPendingAt())).toBeInstanceOf(DatabaseUnavailableError);
    unlock();
  });

  it('the SQLite probe waits out a short transaction of another process', async () => {
    lock();
    // The other transaction ends while the probe waits, having found the file locked.
    const waits: number[] = [];
    await sqliteWriteProbe(t.db, {
      waitMs: 2000,
      sleep: async (ms) => {
        waits.push(ms);
        unlock();
      },
    })();
    expect(waits).toEqual([1]);
    // And takes the lock as held when this connection holds a transaction itself.
    t.db.exec('BEGIN IMMEDIATE');
    await sqliteWriteProbe(t.db)();
    t.db.exec('ROLLBACK');
    expect(t.db.pragma('busy_timeout', { simple: true })).toBe(20);
  });
});
