/**
 * HealthFlagsRepo on both backends: each of the bot's own problems is reported once when
 * it starts and once when it clears, however many runs (or replicas) see it in between.
 */
import { expect, it } from 'vitest';
import { HealthFlagKey, type HealthFlagsRepo, jobFailingFlag } from '../../../src/store/health-flags-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): HealthFlagsRepo => b.store().healthFlags;

describeBackends('health flags', (backend) => {
  it('a problem is reported once when raised and once when cleared', async () => {
    const flags = repoOn(backend());
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
    expect(await flags.get('key_rejected')).toEqual({
      key: 'key_rejected',
      detail: 'still',
      raisedAtMs: 100,
      raisedReportedAtMs: 150,
      clearedAtMs: 400,
      clearedReportedAtMs: 500,
    });
    // A new episode is reported again.
    expect(await flags.raise('key_rejected', 'HTTP 403', 600)).toBe(true);
    expect(await flags.pendingReports()).toMatchObject([{ event: 'raised', atMs: 600 }]);
    expect(await flags.get('key_rejected')).toEqual({
      key: 'key_rejected',
      detail: 'HTTP 403',
      raisedAtMs: 600,
      raisedReportedAtMs: null,
      clearedAtMs: null,
      clearedReportedAtMs: null,
    });
  });

  it('raised and cleared before any report: nothing to report', async () => {
    const flags = repoOn(backend());
    await flags.raise(HealthFlagKey.QuotaSpent, null, 1);
    expect(await flags.clear(HealthFlagKey.QuotaSpent, 2)).toBe(true);
    expect(await flags.pendingReports()).toEqual([]);
    expect(await flags.get(HealthFlagKey.QuotaSpent)).toBeNull();
    expect(await flags.clear('never_raised', 3)).toBe(false);
  });

  it('flapping back before the clear was reported undoes the clear instead of re-announcing', async () => {
    const flags = repoOn(backend());
    const key = jobFailingFlag('citations');
    await flags.raise(key, '3 runs failed', 1);
    await flags.markReported(key, 'raised', 2);
    await flags.clear(key, 3);
    expect(await flags.raise(key, '4 runs failed', 4)).toBe(false);
    expect(await flags.pendingReports()).toEqual([]);
    expect(await flags.get(key)).toMatchObject({ raisedAtMs: 1, clearedAtMs: null, detail: '4 runs failed' });
  });

  it('lists active flags and pending reports oldest first', async () => {
    const flags = repoOn(backend());
    await flags.raise(jobFailingFlag('digest'), 'd', 30);
    await flags.raise(HealthFlagKey.QuotaSpent, 'q', 10);
    await flags.raise(HealthFlagKey.KeyRejected, 'k', 20);
    await flags.markReported(HealthFlagKey.KeyRejected, 'raised', 25);
    await flags.clear(HealthFlagKey.KeyRejected, 40);
    expect((await flags.active()).map((f) => f.key)).toEqual(['quota_spent', 'job_failing:digest']);
    expect(await flags.pendingReports()).toEqual([
      { key: 'quota_spent', event: 'raised', detail: 'q', atMs: 10 },
      { key: 'key_rejected', event: 'cleared', detail: 'k', atMs: 40 },
      { key: 'job_failing:digest', event: 'raised', detail: 'd', atMs: 30 },
    ]);
  });

  it('keeps a detail with a NUL from the API instead of failing the write', async () => {
    const b = backend();
    const flags = repoOn(b);
    expect(await flags.raise(HealthFlagKey.KeyRejected, 'HTTP 401: \u0000', 1)).toBe(true);
    // SQLite keeps the NUL; Postgres cannot, and stores the replacement character.
    expect((await flags.get(HealthFlagKey.KeyRejected))!.detail).toBe(
      b.kind === 'sqlite' ? 'HTTP 401: \u0000' : 'HTTP 401: \ufffd',
    );
  });

  it('inside a transaction that rolls back, raises and clears nothing', async () => {
    const b = backend();
    const flags = repoOn(b);
    await flags.raise(HealthFlagKey.KeyRejected, 'HTTP 401', 1);
    await flags.markReported(HealthFlagKey.KeyRejected, 'raised', 2);
    await expect(
      b.transaction(async () => {
        expect(await flags.raise(HealthFlagKey.QuotaSpent, null, 3)).toBe(true);
        expect(await flags.clear(HealthFlagKey.KeyRejected, 3)).toBe(true);
        throw new Error('the run failed');
      }),
    ).rejects.toThrow('the run failed');
    expect((await flags.active()).map((f) => f.key)).toEqual(['key_rejected']);
    expect(await flags.pendingReports()).toEqual([]);
  });

  it('of several connections raising the same new problem at once, exactly one starts the episode', async () => {
    const repos = [backend(), backend().other(), backend().other(), backend().other()].map(repoOn);
    const started = await Promise.all(
      repos.map((r, i) => r.raise(HealthFlagKey.QuotaSpent, `seen by ${i}`, 10)),
    );
    expect(started.filter(Boolean)).toHaveLength(1);
    expect(await repos[0]!.pendingReports()).toMatchObject([
      { key: 'quota_spent', event: 'raised', atMs: 10 },
    ]);

    // The same once it was reported and cleared: one new episode, not one per replica.
    await repos[0]!.markReported(HealthFlagKey.QuotaSpent, 'raised', 11);
    const cleared = await Promise.all(repos.map((r) => r.clear(HealthFlagKey.QuotaSpent, 12)));
    expect(cleared.filter(Boolean)).toHaveLength(1);
    await repos[0]!.markReported(HealthFlagKey.QuotaSpent, 'cleared', 13);
    const again = await Promise.all(repos.map((r) => r.raise(HealthFlagKey.QuotaSpent, 'again', 20)));
    expect(again.filter(Boolean)).toHaveLength(1);
    expect(await repos[0]!.pendingReports()).toMatchObject([
      { key: 'quota_spent', event: 'raised', atMs: 20 },
    ]);
  });

  it('a raise racing a clear of an unreported flag ends with one episode, not an error', async () => {
    const repos = [backend(), backend().other()].map(repoOn);
    for (let round = 0; round < 10; round++) {
      await repos[0]!.raise(HealthFlagKey.KeyRejected, 'x', round);
      const [raised] = await Promise.all([
        repos[1]!.raise(HealthFlagKey.KeyRejected, 'y', round),
        repos[0]!.clear(HealthFlagKey.KeyRejected, round),
      ]);
      // Raise first: an active flag, cleared (forgotten) after. Clear first: a new episode.
      const flag = await repos[0]!.get(HealthFlagKey.KeyRejected);
      expect(flag === null ? false : flag.clearedAtMs === null).toBe(raised);
      await repos[0]!.clear(HealthFlagKey.KeyRejected, round);
    }
  });
});
