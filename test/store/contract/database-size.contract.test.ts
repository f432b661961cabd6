/** DatabaseSizeQueries on both backends: the database's size in bytes and its rows per main table. */

import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeBackends } from './store-backends.js';

describeBackends('database size', (backend) => {
  it('counts the rows of each main table', async () => {
    const store = backend().store();
    expect((await store.databaseSize.size()).rows).toEqual({
      subscriptions: 0,
      messages: 0,
      pollResults: 0,
      jobRuns: 0,
      auditEntries: 0,
    });
    await store.subscriptions.upsert({
      channelId: 'C1',
      brandId: 'b1',
      brandName: 'B1',
      createdBy: 'U1',
      createdAtMs: 1,
    });
    for (let i = 0; i < 3; i++)
      await store.auditLog.record({ userId: 'U1', action: 'a', result: 'ok', atMs: i });
    await store.pollObservations.put('b1', 'citations', { n: 1 }, 5);
    await store.jobRuns.start('citations', 'me');
    await store.outbox().enqueue({
      dedupeKey: 'k1',
      channelId: 'C1',
      kind: 'alert',
      payload: { text: 'x' },
      nowMs: 1,
    });
    expect((await store.databaseSize.size()).rows).toEqual({
      subscriptions: 1,
      messages: 1,
      pollResults: 1,
      jobRuns: 1,
      auditEntries: 3,
    });
  });

  it('gives the size in bytes, which grows as rows are written', async () => {
    const b = backend();
    const store = b.store();
    const before = (await store.databaseSize.size()).bytes;
    expect(before).toBeGreaterThan(0);
    // Text that does not compress (Postgres would store 'xxx…' in a few bytes), about 1 MB in
    // all: far more than the database's own comings and goings while the test runs.
    for (let i = 0; i < 400; i++) {
      const detail = { note: randomBytes(1800).toString('base64') };
      await store.auditLog.record({ userId: 'U1', action: 'a', result: 'ok', atMs: i, detail });
    }
    // SQLite: more pages; Postgres: the table's files extended to hold the rows.
    expect((await store.databaseSize.size()).bytes).toBeGreaterThan(before);
  });
});
