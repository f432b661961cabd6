/** AuditLog on both backends: who changed what, newest first, from every process. */
import { expect, it } from 'vitest';
import type { AuditLog } from '../../../src/store/audit-log.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const logOn = (b: TestBackend): AuditLog => b.store().auditLog;

describeBackends('audit log', (backend) => {
  it('records entries and reads the most recent first, up to the limit', async () => {
    const log = logOn(backend());
    expect(await log.recent(5)).toEqual([]);
    const subscribed = {
      atMs: 1000,
      userId: 'U1',
      channelId: 'C1',
      brandId: 'b1',
      action: 'subscribe',
      detail: { alerts: true, markets: ['US', 'DE'], nested: { n: 1.5 } },
      result: 'ok',
    };
    await log.record(subscribed);
    await log.record({ atMs: 2000, userId: 'U2', action: 'markets.add', result: 'refused: not an admin' });
    await log.record({ atMs: 1500, userId: 'U3', action: 'subscribe', result: 'error: api_not_found' });
    expect(await log.recent(2)).toEqual([
      {
        atMs: 1500,
        userId: 'U3',
        channelId: null,
        brandId: null,
        action: 'subscribe',
        detail: {},
        result: 'error: api_not_found',
      },
      {
        atMs: 2000,
        userId: 'U2',
        channelId: null,
        brandId: null,
        action: 'markets.add',
        detail: {},
        result: 'refused: not an admin',
      },
    ]);
    expect((await log.recent(10))[2]).toEqual(subscribed);
  });

  it('keeps what a user typed with a NUL instead of failing the write', async () => {
    const b = backend();
    const log = logOn(b);
    await log.record({
      atMs: 1,
      userId: 'U1',
      action: 'notes.add',
      detail: { text: 'a\u0000b', 'key\u0000': 'x' },
      result: 'refused: bad\u0000',
    });
    const [entry] = await log.recent(1);
    const nul = b.kind === 'sqlite' ? '\u0000' : '\ufffd';
    expect(entry!.result).toBe(`refused: bad${nul}`);
    const detail = entry!.detail!;
    expect(detail['text']).toBe(`a${nul}b`);
    expect(detail[`key${nul}`]).toBe('x');
    expect(Object.keys(detail)).toHaveLength(2);
  });

  it('an entry recorded inside a transaction that rolls back leaves nothing', async () => {
    const b = backend();
    const log = logOn(b);
    await expect(
      b.transaction(async () => {
        await log.record({ atMs: 1, userId: 'U1', action: 'subscribe', result: 'ok' });
        throw new Error('the command failed');
      }),
    ).rejects.toThrow('the command failed');
    expect(await log.recent(10)).toEqual([]);
  });

  it('every connection appends, and reads see every entry once', async () => {
    const logs = [backend(), backend().other(), backend().other()].map(logOn);
    // Each connection writes its entries one after another; the connections run at once.
    await Promise.all(
      logs.map(async (log, i) => {
        for (const n of [0, 1, 2, 3])
          await log.record({ atMs: n, userId: `U${i}`, action: `a${n}`, result: 'ok' });
      }),
    );
    const all = await logs[1]!.recent(100);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((e) => `${e.userId}/${e.action}`)).size).toBe(12);
    // Newest first: each connection's own entries come back in reverse order of writing.
    for (const user of ['U0', 'U1', 'U2']) {
      expect(all.filter((e) => e.userId === user).map((e) => e.action)).toEqual(['a3', 'a2', 'a1', 'a0']);
    }
  });
});
