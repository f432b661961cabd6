/**
 * The SQLite budget on a connection of its own: a grant made while a job's transaction is
 * open on the repositories' connection is counted even when that transaction rolls back
 * (on one shared connection it joined the transaction and vanished with it), and waiting
 * for the job's write lock never blocks the event loop the job needs to finish.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedBucketConfig } from '../../../src/api/limiter/budget-store.js';
import { createSqliteBudgetStore } from '../../../src/store/sqlite-budget-store.js';
import { transaction } from '../../../src/store/transaction.js';
import { KEY, type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

/**
 * A budget store on `db` whose waits for a locked file are seen: `found` resolves when it
 * first finds the file locked and starts waiting (on a real timer, as in production).
 */
function lockWatch() {
  let seen = () => {};
  const found = new Promise<void>((r) => {
    seen = r;
  });
  return {
    found,
    budget: (db: Database.Database) => (keyHash: string, config: SharedBucketConfig) =>
      createSqliteBudgetStore(db, keyHash, config, {
        sleep: (ms) => {
          seen();
          return delay(ms);
        },
      }),
  };
}

const sendsOfKey = (f: LimiterFixture) =>
  f.db.prepare("SELECT count(*) FROM rate_sends WHERE key_hash = ? AND scope = 'key'").pluck().get(KEY);

describe('the budget on its own connection', () => {
  it('counts a grant made during a job transaction that rolls back', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    // f.db stands for the repositories' connection; the budget gets another to the file.
    const lock = lockWatch();
    const limiter = f.limiter({ budget: lock.budget(f.file.open()) });
    let grant: Promise<void> | undefined;
    let attemptedWhileOpen = false;
    await expect(
      transaction(f.db, async () => {
        f.db.prepare("INSERT INTO health_flags (key, raised_at_ms) VALUES ('job', 1)").run();
        // Another brand's API call, started while this brand's transaction holds the lock.
        grant = limiter.acquire('getBrands', 'background');
        // The limiter tries, finds the file locked and waits, before the job fails.
        await lock.found;
        attemptedWhileOpen = limiter.state().lanes.background.queued === 1;
        throw new Error('the job failed');
      }),
    ).rejects.toThrow('the job failed');
    await grant;

    expect(attemptedWhileOpen).toBe(true);
    // The job's own write is gone, the grant is not.
    expect(f.db.prepare("SELECT count(*) FROM health_flags WHERE key = 'job'").pluck().get()).toBe(0);
    expect(sendsOfKey(f)).toBe(1);
    expect((await stateOf(limiter)).usedToday).toBe(1);
  });

  it('a grant waiting for the lock leaves the event loop free: the job commits, then the grant goes', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const lock = lockWatch();
    const limiter = f.limiter({ budget: lock.budget(f.file.open()) });
    const order: string[] = [];
    let grant: Promise<unknown> | undefined;
    await transaction(f.db, async () => {
      grant = limiter.acquire('getBrands', 'background').then(() => order.push('granted'));
      // The grant found the file locked and waits on a timer: the job runs on meanwhile
      // (a wait inside SQLite's busy handler would hold the loop, and this, until it ended).
      await lock.found;
      order.push('job done');
    });
    order.push('committed');
    await grant;
    expect(order).toEqual(['job done', 'committed', 'granted']);
    expect(sendsOfKey(f)).toBe(1);
  });

  it('fails the waiters with a clear error when the file stays locked too long', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const budgetDb = f.file.open();
    const limiter = f.limiter({
      // Time passes only in the store's waits: it gives up after 30 ms of them, in no real time.
      budget: (keyHash, config) => {
        let waitedMs = 0;
        return createSqliteBudgetStore(budgetDb, keyHash, config, {
          giveUpAfterMs: 30,
          maxRetryDelayMs: 5,
          elapsedMs: () => waitedMs,
          sleep: async (ms) => {
            waitedMs += ms;
          },
        });
      },
    });
    // Another process holds the write lock and does not let go.
    const other = f.file.open();
    other.exec('BEGIN IMMEDIATE');
    await expect(limiter.acquire('getBrands', 'interactive')).rejects.toMatchObject({
      code: 'limiter_budget_store_failed',
      message: expect.stringContaining('stayed locked'),
    });
    other.exec('ROLLBACK');
  });
});
