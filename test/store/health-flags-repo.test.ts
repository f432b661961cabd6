import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHealthFlagsRepo, HealthFlagKey, jobFailingFlag } from '../../src/store/health-flags-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('health flags', () => {
  it('a problem is reported once when raised and once when cleared', async () => {
    const flags = createHealthFlagsRepo(t.db);
    expect(await flags.raise(HealthFlagKey.KeyRejected, 'HTTP 401', 100)).toBe(true);
    expect(await flags.raise(HealthFlagKey.KeyRejected, 'HTTP 401 again', 200)).toBe(false);
    expect(await flags.pendingReports()).toEqual([
      { key: 'key_rejected', event: 'raised', detail: 'HTTP 401 again', atMs: 100 },
    ]);
    await flags.markReported('key_rejected', 'raised', 150);
    expect(await flags.pendingReports()).toEqual([]);
    expect(await flags.raise(HealthFlagKey.KeyRejected, 'still', 300)).toBe(false);
    expect(await flags.pendingReports()).toEqual([]);
    expect((await flags.active()).map((f) => f.key)).toEqual(['key_rejected']);
    expect(await flags.clear('key_rejected', 400)).toBe(true);
    expect(await flags.clear('key_rejected', 450)).toBe(false);
    expect(await flags.active()).toEqual([]);
    expect(await flags.pendingReports()).toEqual([
      { key: 'key_rejected', event: 'cleared', detail: 'still', atMs: 400 },
    ]);
    await flags.markReported('key_rejected', 'cleared', 500);
    expect(await flags.pendingReports()).toEqual([]);
    // A new episode is reported again.
    expect(await flags.raise('key_rejected', 'HTTP 403', 600)).toBe(true);
    expect(await flags.pendingReports()).toMatchObject([{ event: 'raised', atMs: 600 }]);
  });

  it('raised and cleared before any report: nothing to report', async () => {
    const flags = createHealthFlagsRepo(t.db);
    await flags.raise(HealthFlagKey.QuotaSpent, null, 1);
    expect(await flags.clear(HealthFlagKey.QuotaSpent, 2)).toBe(true);
    expect(await flags.pendingReports()).toEqual([]);
    expect(await flags.get(HealthFlagKey.QuotaSpent)).toBeNull();
  });

  it('flapping back before the clear was reported undoes the clear instead of re-announcing', async () => {
    const flags = createHealthFlagsRepo(t.db);
    const key = jobFailingFlag('citations');
    await flags.raise(key, '3 runs failed', 1);
    await flags.markReported(key, 'raised', 2);
    await flags.clear(key, 3);
    expect(await flags.raise(key, '4 runs failed', 4)).toBe(false);
    expect(await flags.pendingReports()).toEqual([]);
    expect(await flags.get(key)).toMatchObject({ raisedAtMs: 1, clearedAtMs: null, detail: '4 runs failed' });
  });
});
