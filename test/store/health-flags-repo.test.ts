import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHealthFlagsRepo, HealthFlagKey, jobFailingFlag } from '../../src/store/health-flags-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.close());

describe('health flags', () => {
  it('a problem is reported once when raised and once when cleared', () => {
    const flags = createHealthFlagsRepo(t.db);
    expect(flags.raise(HealthFlagKey.KeyRejected, 'HTTP 401', 100)).toBe(true);
    expect(flags.raise(HealthFlagKey.KeyRejected, 'HTTP 401 again', 200)).toBe(false);
    expect(flags.pendingReports()).toEqual([
      { key: 'key_rejected', event: 'raised', detail: 'HTTP 401 again', atMs: 100 },
    ]);
    flags.markReported('key_rejected', 'raised', 150);
    expect(flags.pendingReports()).toEqual([]);
    expect(flags.raise(HealthFlagKey.KeyRejected, 'still', 300)).toBe(false);
    expect(flags.pendingReports()).toEqual([]);
    expect(flags.active().map((f) => f.key)).toEqual(['key_rejected']);
    expect(flags.clear('key_rejected', 400)).toBe(true);
    expect(flags.clear('key_rejected', 450)).toBe(false);
    expect(flags.active()).toEqual([]);
    expect(flags.pendingReports()).toEqual([
      { key: 'key_rejected', event: 'cleared', detail: 'still', atMs: 400 },
    ]);
    flags.markReported('key_rejected', 'cleared', 500);
    expect(flags.pendingReports()).toEqual([]);
    // A new episode is reported again.
    expect(flags.raise('key_rejected', 'HTTP 403', 600)).toBe(true);
    expect(flags.pendingReports()).toMatchObject([{ event: 'raised', atMs: 600 }]);
  });

  it('raised and cleared before any report: nothing to report', () => {
    const flags = createHealthFlagsRepo(t.db);
    flags.raise(HealthFlagKey.QuotaSpent, null, 1);
    expect(flags.clear(HealthFlagKey.QuotaSpent, 2)).toBe(true);
    expect(flags.pendingReports()).toEqual([]);
    expect(flags.get(HealthFlagKey.QuotaSpent)).toBeNull();
  });

  it('flapping back before the clear was reported undoes the clear instead of re-announcing', () => {
    const flags = createHealthFlagsRepo(t.db);
    const key = jobFailingFlag('citations');
    flags.raise(key, '3 runs failed', 1);
    flags.markReported(key, 'raised', 2);
    flags.clear(key, 3);
    expect(flags.raise(key, '4 runs failed', 4)).toBe(false);
    expect(flags.pendingReports()).toEqual([]);
    expect(flags.get(key)).toMatchObject({ raisedAtMs: 1, clearedAtMs: null, detail: '4 runs failed' });
  });
});
