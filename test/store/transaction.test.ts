import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { transaction } from '../../src/store/transaction.js';
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
    const citations = createSqliteStore(t.db).citationState;
    const outbox = createSqliteStore(t.db).outbox();
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
    const citations = createSqliteStore(t.db).citationState;
    const outbox = createSqliteStore(t.db).outbox();
    const subs = createSqliteStore(t.db).subscriptions;
    const run = t.store.transaction;
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
    const run = t.store.transaction;
    expect(await run(() => run(async () => 42))).toBe(42);
  });
});

/** A promise the test settles by hand: it holds a transaction open at an await. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Lets every ready callback run (microtasks and I/O turns), so "still waiting" means blocked. */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const row = (key: string) => ({
  dedupeKey: key,
  channelId: 'C1',
  kind: 'alert' as const,
  payload: { text: key },
  nowMs: 1,
});

describe('transaction context (the SQLite gate)', () => {
  it('a read from outside an open transaction waits for its commit, then sees the committed rows', async () => {
    const outbox = createSqliteStore(t.db).outbox();
    const hold = gate();
    const tx = transaction(t.db, async () => {
      await outbox.enqueue(row('k1'));
      await hold.opened;
    });
    await settle();
    let seen: number | undefined;
    const outside = outbox.counts().then((c) => {
      seen = c.pending;
    });
    await settle();
    // Not the uncommitted row, and not "nothing" either: the read is still waiting.
    expect(seen).toBeUndefined();
    hold.open();
    await tx;
    await outside;
    expect(seen).toBe(1);
  });

  it("a write from outside is not swept into another context's transaction and its rollback", async () => {
    const outbox = createSqliteStore(t.db).outbox();
    const hold = gate();
    const tx = transaction(t.db, async () => {
      await outbox.enqueue(row('inside'));
      await hold.opened;
      throw new Error('the body failed after its first write');
    });
    await settle();
    const outside = outbox.enqueue(row('outside'));
    await settle();
    hold.open();
    await expect(tx).rejects.toThrow('the body failed');
    expect((await outside).created).toBe(true);
    expect(await outbox.getByDedupeKey('inside')).toBeNull();
    expect(await outbox.getByDedupeKey('outside')).not.toBeNull();
    expect(t.db.inTransaction).toBe(false);
  });

  it('a failed body releases the gate: the next transaction and plain calls run', async () => {
    const outbox = createSqliteStore(t.db).outbox();
    await expect(
      transaction(t.db, async () => {
        await outbox.enqueue(row('lost'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await transaction(t.db, async () => {
      await outbox.enqueue(row('kept'));
    });
    expect(await outbox.counts()).toMatchObject({ pending: 1 });
    expect(await outbox.getByDedupeKey('kept')).not.toBeNull();
  });

  it('two transactions of one process run one after the other, each whole', async () => {
    const outbox = createSqliteStore(t.db).outbox();
    const events: string[] = [];
    const hold = gate();
    const first = transaction(t.db, async () => {
      events.push('first begins');
      await outbox.enqueue(row('a'));
      await hold.opened;
      events.push('first ends');
    });
    const second = transaction(t.db, async () => {
      events.push('second begins');
      await outbox.enqueue(row('b'));
      events.push('second ends');
    });
    await settle();
    expect(events).toEqual(['first begins']);
    hold.open();
    await Promise.all([first, second]);
    expect(events).toEqual(['first begins', 'first ends', 'second begins', 'second ends']);
    expect(await outbox.counts()).toMatchObject({ pending: 2 });
  });

  it('calls inside the context run at once, also side by side, and nested transactions are savepoints', async () => {
    const outbox = createSqliteStore(t.db).outbox();
    const subs = createSqliteStore(t.db).subscriptions;
    await transaction(t.db, async () => {
      await Promise.all([outbox.enqueue(row('x')), outbox.enqueue(row('y'))]);
      await expect(
        transaction(t.db, async () => {
          await outbox.enqueue(row('inner'));
          throw new Error('inner failed');
        }),
      ).rejects.toThrow('inner failed');
      // The inner savepoint rolled back alone; the outer transaction goes on and commits.
      await transaction(t.db, async () => {
        await subs.upsert({ channelId: 'C1', brandId: 'b1', brandName: 'B', createdBy: 'U', createdAtMs: 1 });
      });
    });
    expect(await outbox.getByDedupeKey('inner')).toBeNull();
    expect((await outbox.listHeld()).length + (await outbox.counts()).pending).toBe(2);
    expect(await subs.listAll()).toHaveLength(1);
  });

  it('another connection to the file cannot see rows before the commit', async () => {
    const outbox = createSqliteStore(t.db).outbox();
    const second = t.open();
    const hold = gate();
    const tx = transaction(t.db, async () => {
      await outbox.enqueue(row('k1'));
      await hold.opened;
    });
    await settle();
    // A plain read on the second connection (as another process would do it): WAL shows the last commit.
    const count = () => second.prepare('SELECT COUNT(*) FROM outbox').pluck().get() as number;
    expect(count()).toBe(0);
    hold.open();
    await tx;
    expect(count()).toBe(1);
  });
});
