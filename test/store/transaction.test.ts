import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCitationStateRepo } from '../../src/store/citation-state-repo.js';
import { createOutboxRepo } from '../../src/store/outbox-repo.js';
import { createSubscriptionsRepo } from '../../src/store/subscriptions-repo.js';
import { createTransaction, transaction } from '../../src/store/transaction.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

const state = new Map([
  [
    'https://x.example/1',
    {
      presence: 'lost' as const,
      presenceAtMs: 1,
      sentiment: null,
      sentimentAtMs: null,
      competitors: [],
      version: 1,
      lastEvent: 'lost',
    },
  ],
]);

describe('transaction', () => {
  it('writes detector state and outbox rows together', async () => {
    const citations = createCitationStateRepo(t.db);
    const outbox = createOutboxRepo(t.db);
    await transaction(t.db, async () => {
      await citations.save('b1', state, 1);
      await outbox.enqueue({
        dedupeKey: 'k1',
        channelId: 'C1',
        kind: 'alert',
        payload: { text: 'x' },
        nowMs: 1,
      });
    });
    expect(await citations.count('b1')).toBe(1);
    expect((await outbox.counts()).pending).toBe(1);
  });

  it('a failure leaves neither the state nor the outbox row behind', async () => {
    const citations = createCitationStateRepo(t.db);
    const outbox = createOutboxRepo(t.db);
    const subs = createSubscriptionsRepo(t.db);
    const run = createTransaction(t.db);
    await expect(
      run(async () => {
        await citations.save('b1', state, 1);
        await subs.upsert({ channelId: 'C1', brandId: 'b1', brandName: 'B', createdBy: 'U', createdAtMs: 1 });
        await outbox.enqueue({
          dedupeKey: 'k1',
          channelId: 'C1',
          kind: 'alert',
          payload: { text: 'x' },
          nowMs: 1,
        });
        throw new Error('Slack payload could not be built');
      }),
    ).rejects.toThrow('Slack payload');
    expect(await citations.count('b1')).toBe(0);
    expect((await outbox.counts()).pending).toBe(0);
    expect(await subs.listAll()).toEqual([]);
  });

  it('returns the function result and nests', async () => {
    const run = createTransaction(t.db);
    expect(await run(() => run(async () => 42))).toBe(42);
  });
});
