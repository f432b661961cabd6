/**
 * The service spends a token when a request arrives, the limiter when it grants it: the
 * bucket keeps back rate × the recent grant-to-response time, so a slow request followed
 * by fast ones cannot put the service's bucket behind ours.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RecentMax } from '../../../src/api/limiter/recent-max.js';
import { acquireMany, type LimiterFixture, limiterFixture } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f?.cleanup());

describe('RecentMax', () => {
  it('keeps the largest sample of the span', () => {
    const m = new RecentMax(1_000);
    m.add(5, 0);
    m.add(9, 100);
    m.add(3, 200);
    expect(m.get(300)).toBe(9);
    expect(m.get(1_100)).toBe(3);
    expect(m.get(1_200)).toBe(0);
  });
});

describe('latency headroom', () => {
  it('keeps rate × recent latency back in every lane, and lets it go once the latency is old', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 10 } });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 10, 'getBrands', 'interactive');
    await f.clock.sleep(500);
    // The first of them answered 500 ms after its grant: keep 0.5 token (1/s) back.
    limiter.observe('getBrands', { status: 200 });
    await limiter.acquire('getBrands', 'interactive');
    expect(f.clock.now() - t0).toBe(1_500);

    // A minute on, that latency no longer counts.
    await f.clock.sleep(60_000);
    const later = f.clock.now();
    await acquireMany(limiter, f.clock, 10, 'getBrands', 'interactive');
    expect(f.clock.now()).toBe(later);
  });
});
