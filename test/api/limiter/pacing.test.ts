/**
 * The key's token bucket and the per-endpoint windows, on a virtual clock: minutes of
 * limiter time in milliseconds, with exact grant timestamps to assert on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EndpointKey } from '../../../src/api/endpoint-table.js';
import {
  acquireMany,
  type LimiterFixture,
  limiterFixture,
  maxInAnyWindow,
  stateOf,
  worstBucketExcess,
} from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

describe('key token bucket', () => {
  it('lets the burst through at once, then one per token interval, and never more (scale: 100, 1/s)', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    const grants = await acquireMany(limiter, f.clock, 300, 'getBrands', 'interactive');

    expect(grants.filter((t) => t === t0)).toHaveLength(100);
    expect(worstBucketExcess(grants, 100, 1 / 1_000)).toBeLessThanOrEqual(0);
    // Efficient as well as safe: the 200 beyond the burst take exactly 200 token intervals.
    expect(Math.max(...grants) - t0).toBe(200_000);
    expect(await stateOf(limiter)).toMatchObject({ capacity: 100, refillPerSecond: 1, usedToday: 300 });
  });

  it('follows compressed limits (windowMs and limits overrides)', async () => {
    f = limiterFixture({ endpointPerMinute: null, windowMs: 1_000, limits: { perMinute: 20, burst: 5 } });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    const grants = await acquireMany(limiter, f.clock, 25, 'getBrands', 'interactive');
    expect(worstBucketExcess(grants, 5, 20 / 1_000)).toBeLessThanOrEqual(0);
    expect(Math.max(...grants) - t0).toBe(1_000);
    expect((await stateOf(limiter)).refillPerSecond).toBe(20);
  });

  it('keeps the bucket level across a restart (a new limiter on the same file)', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const first = f.limiter();
    await acquireMany(first, f.clock, 100, 'getBrands', 'interactive');
    first.close();
    const restarted = f.limiter({ db: f.file.open() });
    expect((await stateOf(restarted)).tokens).toBe(0);
    const t0 = f.clock.now();
    await restarted.acquire('getBrands', 'interactive');
    expect(f.clock.now() - t0).toBe(1_000);
  });
});

describe('per-endpoint windows (docs/api.md §8)', () => {
  it('sends no more than the endpoint limit in any window (POST /get-content-ideas: 10/min)', async () => {
    f = limiterFixture({ plan: 'enterprise' });
    const t0 = f.clock.now();
    const grants = await acquireMany(f.limiter(), f.clock, 30, 'refreshContentIdeas', 'interactive');
    expect(maxInAnyWindow(grants, 60_000)).toBe(10);
    expect(Math.max(...grants) - t0).toBe(120_000);
  });

  it('counts the four brand writes against one 30/min window, and other endpoints not at all', async () => {
    f = limiterFixture({ plan: 'enterprise' });
    const limiter = f.limiter();
    const writes: EndpointKey[] = ['addMarket', 'removeMarket', 'setLocation', 'setAliases'];
    const t0 = f.clock.now();
    const [writeGrants, readGrants] = await Promise.all([
      acquireMany(limiter, f.clock, 80, (i) => writes[i % 4]!, 'interactive'),
      acquireMany(limiter, f.clock, 40, 'getBrands', 'interactive'),
    ]);
    expect(maxInAnyWindow(writeGrants, 60_000)).toBe(30);
    expect(Math.max(...writeGrants) - t0).toBe(120_000);
    expect(readGrants.every((t) => t === t0)).toBe(true);
  });

  it('counts a send from when its response came back, since the server counted it on arrival', async () => {
    f = limiterFixture({ plan: 'enterprise', endpointPerMinute: 3, windowMs: 1_000 }, { unanswered: true });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 3, 'getCitations', 'interactive');
    // The first response is back at +200 ms (a burst queued for connections): its slot
    // frees at +1200, not +1000. The other two never answered: they keep their grant time.
    await f.clock.sleep(200);
    limiter.observe('getCitations', { status: 200 });
    const grants = await acquireMany(limiter, f.clock, 3, 'getCitations', 'interactive');
    expect(grants.map((t) => t - t0)).toEqual([1_000, 1_000, 1_200]);
  });

  it('honours an endpointPerMinute override', async () => {
    f = limiterFixture({ plan: 'enterprise', endpointPerMinute: 3, windowMs: 1_000 });
    const grants = await acquireMany(f.limiter(), f.clock, 9, 'getCitations', 'interactive');
    expect(maxInAnyWindow(grants, 1_000)).toBe(3);
  });
});

describe('one budget for two limiters on one database file', () => {
  it('never exceeds the key limits together', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const serve = f.limiter();
    const runJob = f.limiter({ db: f.file.open() });
    const t0 = f.clock.now();
    const [a, b] = await Promise.all([
      acquireMany(serve, f.clock, 150, 'getBrands', 'interactive'),
      acquireMany(runJob, f.clock, 150, 'getCitations', 'interactive'),
    ]);
    const all = [...a, ...b];
    expect(worstBucketExcess(all, 100, 1 / 1_000)).toBeLessThanOrEqual(0);
    expect(Math.max(...all) - t0).toBe(200_000);
    // Both made progress: neither starved the other.
    expect(Math.min(a.length, b.length)).toBe(150);
    expect((await stateOf(serve)).usedToday).toBe(300);
  });

  it('shares endpoint windows too', async () => {
    f = limiterFixture({ plan: 'enterprise' });
    const serve = f.limiter();
    const runJob = f.limiter({ db: f.file.open() });
    const [a, b] = await Promise.all([
      acquireMany(serve, f.clock, 20, 'setAliases', 'interactive'),
      acquireMany(runJob, f.clock, 20, 'addMarket', 'interactive'),
    ]);
    expect(maxInAnyWindow([...a, ...b], 60_000)).toBe(30);
  });
});
