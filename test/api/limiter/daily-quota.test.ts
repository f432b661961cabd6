/** The daily count (UTC day) lives in SQLite: it survives restarts and stops requests at the cap. */
import { afterEach, describe, expect, it } from 'vitest';
import { QuotaExhaustedError } from '../../../src/api/errors.js';
import { acquireMany, type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

const NEXT_MIDNIGHT = Date.UTC(2025, 0, 16);

describe('daily quota', () => {
  it('rejects at the cap with QuotaExhaustedError(resetAt = next UTC midnight), sending nothing', async () => {
    f = limiterFixture({ plan: 'test', limits: { perDay: 5 } });
    const limiter = f.limiter();
    await acquireMany(limiter, f.clock, 5, 'getBrands', 'interactive');
    const error = await limiter.acquire('getBrands', 'interactive').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as QuotaExhaustedError).resetAt).toBe(NEXT_MIDNIGHT);
    expect(await stateOf(limiter)).toMatchObject({
      usedToday: 5,
      dailyLimit: 5,
      dailyResetAt: NEXT_MIDNIGHT,
    });
  });

  it('rejects every queued waiter once the day is spent', async () => {
    f = limiterFixture({ plan: 'test', limits: { perDay: 3, burst: 1 } });
    const limiter = f.limiter();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => limiter.acquire('getBrands', 'background')),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    expect((await stateOf(limiter)).lanes.background.queued).toBe(0);
  });

  it('survives a restart, and resets at UTC midnight', async () => {
    f = limiterFixture({ plan: 'test', limits: { perDay: 5 } });
    const first = f.limiter();
    await acquireMany(first, f.clock, 4, 'getBrands', 'interactive');
    first.close();

    const restarted = f.limiter({ db: f.file.open() });
    expect((await stateOf(restarted)).usedToday).toBe(4);
    await restarted.acquire('getBrands', 'interactive');
    await expect(restarted.acquire('getBrands', 'interactive')).rejects.toBeInstanceOf(QuotaExhaustedError);

    await f.clock.sleep(NEXT_MIDNIGHT - f.clock.now());
    await restarted.acquire('getBrands', 'interactive');
    expect(await stateOf(restarted)).toMatchObject({
      usedToday: 1,
      dailyResetAt: NEXT_MIDNIGHT + 86_400_000,
    });
  });

  it('has no cap on enterprise', async () => {
    f = limiterFixture({ plan: 'enterprise', endpointPerMinute: null });
    const limiter = f.limiter();
    await acquireMany(limiter, f.clock, 600, 'getBrands', 'interactive');
    expect(await stateOf(limiter)).toMatchObject({ usedToday: 600, dailyLimit: null });
  });
});
