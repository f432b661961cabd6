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

// 1 token/s, samples (and a 429's addition) kept for a minute, at most 25 tokens, 5 per 429.
const scaleMargin = () =>
  new SafetyMargin({
    refillPerMs: 1 / 1000,
    spanMs: 60_000,
    penaltySpanMs: 60_000,
    maxTokens: 25,
    stepTokens: 5,
  });

describe('SafetyMargin', () => {
  it('keeps rate × the spread of recent grant-to-response times', () => {
    const m = scaleMargin();
    expect(m.tokens(0)).toBe(0);
    // One sample cannot tell latency from jitter: all of it counts.
    m.record(800, 0);
    expect(m.tokens(0)).toBeCloseTo(0.8);
    // Steady latency is not jitter: 800 and 700 ms differ by 100 ms.
    m.record(700, 10);
    expect(m.tokens(10)).toBeCloseTo(0.1);
    // A loaded machine: one response 3.1 s after its grant widens the spread to 2.4 s.
    m.record(3_100, 20);
    expect(m.jitterMs(20)).toBe(2_400);
    expect(m.tokens(20)).toBeCloseTo(2.4);
  });

  it('forgets samples older than its span, so a quiet machine gets its burst back', () => {
    const m = scaleMargin();
    m.record(100, 0);
    m.record(5_100, 1_000);
    expect(m.tokens(1_000)).toBeCloseTo(5);
    m.record(200, 30_000);
    // At 60.5 s the 100 ms sample (t=0) has left; 5.1 s and 0.2 s remain.
    expect(m.tokens(60_500)).toBeCloseTo(4.9);
    // At 61 s the slow one has left too: only the 0.2 s sample, counted whole.
    expect(m.tokens(61_000)).toBeCloseTo(0.2);
  });

  it('adds a step for each 429 and halves the addition every quiet span', () => {
    const m = scaleMargin();
    m.record(100, 0);
    m.record429(0);
    expect(m.tokens(0)).toBeCloseTo(5.1);
    m.record429(1_000);
    expect(m.tokens(1_000)).toBeCloseTo(10.1);
    expect(m.tokens(61_000)).toBeCloseTo(5);
    expect(m.tokens(121_000)).toBeCloseTo(2.5);
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

    // Seconds on, that latency no longer counts (only requests in flight can bunch up).
    await f.clock.sleep(10_000);
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
