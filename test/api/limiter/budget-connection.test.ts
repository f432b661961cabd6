/**
 * The SQLite budget on a connection of its own: a grant made while a job's transaction is
 * open on the repositories' connection is counted even when that transaction rolls back
 * (on one shared connection it joined the transaction and vanished with it), and waiting
 * for the job's write lock never blocks the event loop the job needs to finish.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteBudgetStore } from '../../../src/store/sqlite-budget-store.js';
import { transaction } from '../../../src/store/transaction.js';
import { KEY, type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

const sendsOfKey = (f: LimiterFixture) =>
  f.db.prepare("SELECT count(*) FROM rate_sends WHERE key_hash = ? AND scope = 'key'").pluck().get(KEY);

describe('the budget on its own connection', () => {
  it('counts a grant made during a job transaction that rolls back', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    // f.db stands for the repositories' connection; the budget gets another to the file.
    const limiter = f.limiter({ db: f.file.open() });
    let grant: Promise<void> | undefined;
    let attemptedWhileOpen = false;
    await expect(
      transaction(f.db, async () => {
        f.db.prepare("INSERT INTO health_flags (key, raised_at_ms) VALUES ('job', 1)").run();
        // Another brand's API call, started while this brand's transaction holds the lock.
        grant = limiter.acquire('getBrands', 'background');
        // Let the limiter try (and find the file locked) before the job fails.
        await new Promise((resolve) => setTimeout(resolve, 20));
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
    const limiter = f.limiter({ db: f.file.open() });
    const order: string[] = [];
    let grant: Promise<unknown> | undefined;
    await transaction(f.db, async () => {
      grant = limiter.acquire('getBrands', 'background').then(() => order.push('granted'));
      // Timers still fire while the grant waits (a blocked loop would run none of them).
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
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
      budget: (keyHash, config) =>
        createSqliteBudgetStore(budgetDb, keyHash, config, { giveUpAfterMs: 30, maxRetryDelayMs: 5 }),
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
