/**
 * The service spends a token when a request arrives, the limiter when it grants it: the
 * bucket keeps back rate × the spread of recent grant-to-response times, and more after a
 * 429, so scheduling jitter on a loaded machine does not turn into 429s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SafetyMargin } from '../../../src/api/limiter/safety-margin.js';
import { acquireMany, type LimiterFixture, limiterFixture } from './limiter-test-kit.js';

let f: LimiterFixture | undefined;
afterEach(() => f?.cleanup());

// 1 token/s, a 429's addition halves each minute, at most 25 tokens, 5 per 429.
const scaleMargin = () =>
  new SafetyMargin({ refillPerMs: 1 / 1000, penaltySpanMs: 60_000, maxTokens: 25, stepTokens: 5 });

describe('SafetyMargin', () => {
  it('keeps rate × the largest grant-to-response time since the bucket was last full', () => {
    const m = scaleMargin();
    expect(m.tokens(0)).toBe(0);
    m.record(800);
    expect(m.tokens(0)).toBeCloseTo(0.8);
    // Faster responses later do not shrink it: the service still lags by the first's delay.
    m.record(100);
    expect(m.tokens(100_000)).toBeCloseTo(0.8);
    // A loaded machine: one response 3.1 s after its grant.
    m.record(3_100);
    expect(m.latencyMs()).toBe(3_100);
    expect(m.tokens(0)).toBeCloseTo(3.1);
    // Once our bucket is full, the service's is too: the lag is gone.
    m.bucketFull();
    expect(m.tokens(0)).toBe(0);
  });

  it('adds a step for each 429 and halves the addition every quiet span', () => {
    const m = scaleMargin();
    m.record(100);
    m.record429(0);
    expect(m.tokens(0)).toBeCloseTo(5.1);
    m.record429(1_000);
    expect(m.tokens(1_000)).toBeCloseTo(10.1);
    expect(m.tokens(61_000)).toBeCloseTo(5.1);
    expect(m.tokens(121_000)).toBeCloseTo(2.6);
    m.bucketFull();
    expect(m.tokens(30 * 60_000 + 1_000)).toBe(0);
  });

  it('never keeps back more than its cap', () => {
    const m = scaleMargin();
    for (let i = 0; i < 10; i++) m.record429(i);
    expect(m.tokens(10)).toBe(25);
  });
});

describe('safety margin in the limiter', () => {
  it('a burst stops short of the bucket floor by rate × jitter', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 10 } });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 10, 'getBrands', 'interactive');
    await f.clock.sleep(500);
    // The first of them answered 500 ms after its grant: keep 0.5 token (1/s) back.
    limiter.observe('getBrands', { status: 200 });
    await limiter.acquire('getBrands', 'interactive');
    expect(f.clock.now() - t0).toBe(1_500);

    // Once the bucket is full again, that latency no longer counts.
    await f.clock.sleep(60_000);
    const later = f.clock.now();
    await acquireMany(limiter, f.clock, 10, 'getBrands', 'interactive');
    expect(f.clock.now()).toBe(later);
  });

  it('after a 429 the next burst leaves a step of tokens unused', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 100 } });
    const limiter = f.limiter();
    limiter.observe('getBrands', { status: 429, retryAfterMs: 1_000 });
    // The key resumes at t0+1 s with an empty bucket; wait until it is full again.
    await f.clock.sleep(200_000);
    const t1 = f.clock.now();
    const grants = await acquireMany(limiter, f.clock, 100, 'getBrands', 'interactive');
    // Margin 5 tokens (5 % of 100) halved by three quiet minutes = 0.625: 99 go at once.
    expect(grants.filter((t) => t === t1)).toHaveLength(99);
  });
});
