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
  new SafetyMargin({
    refillPerMs: 1 / 1000,
    penaltySpanMs: 60_000,
    maxTokens: 25,
    stepTokens: 5,
    maxLatencyMs: 5_000,
  });

describe('SafetyMargin', () => {
  it('keeps rate × the response time of the first request granted since the bucket was full', () => {
    const m = scaleMargin();
    expect(m.tokens(0)).toBe(0);
    m.granted(1_000);
    m.granted(1_000);
    m.granted(1_200);
    // In flight: the service may not have started refilling, so its age so far counts.
    expect(m.tokens(1_300)).toBeCloseTo(0.3);
    // A later request answered first says nothing about the first one.
    m.answered(1_200, 1_400);
    expect(m.tokens(1_500)).toBeCloseTo(0.5);
    m.answered(1_000, 1_800);
    expect(m.latencyMs(1_800)).toBe(800);
    // Answered: fixed at 0.8 s, however long the run goes on and however slow later ones are.
    m.granted(2_000);
    m.answered(1_000, 9_000);
    m.answered(2_000, 9_000);
    expect(m.tokens(100_000)).toBeCloseTo(0.8);
    // Once our bucket is full, the service's is too: the lag is gone.
    m.bucketFull();
    expect(m.tokens(100_000)).toBe(0);
  });

  it('a first request never answered counts as lost once older than the longest latency', () => {
    const m = scaleMargin();
    m.granted(0);
    expect(m.tokens(4_000)).toBeCloseTo(4);
    expect(m.tokens(60_000)).toBeCloseTo(5);
  });

  it('adds a step for each 429 and halves the addition every quiet span', () => {
    const m = scaleMargin();
    m.granted(0);
    m.answered(0, 100);
    m.record429(0);
    expect(m.tokens(0)).toBeCloseTo(5.1);
    m.record429(1_000);
    expect(m.tokens(1_000)).toBeCloseTo(10.1);
    expect(m.tokens(61_000)).toBeCloseTo(5.1);
    expect(m.tokens(121_000)).toBeCloseTo(2.6);
    m.bucketFull();
    expect(m.tokens(30 * 60_000 + 1_000)).toBe(0);
  });

  it("caps what 429s add, not the first request's delay", () => {
    const m = scaleMargin();
    for (let i = 0; i < 10; i++) m.record429(i);
    expect(m.tokens(10)).toBe(25);
    m.granted(10);
    expect(m.tokens(4_010)).toBeCloseTo(29);
  });
});

describe('safety margin in the limiter', () => {
  it('a burst stops short of the bucket floor by rate × jitter', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 10 } }, { unanswered: true });
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

  it('a bucket that refilled while its requests are still unanswered keeps the margin', async () => {
    // A burst of 2 refills in 2 s; the first answer takes longer (a cold start under load).
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 2 } }, { unanswered: true });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 2, 'getBrands', 'interactive');
    await f.clock.sleep(3_000);
    // Our bucket is full, but the service may not have counted either request yet: it
    // grants one token at a time, not the burst again.
    const grants = await acquireMany(limiter, f.clock, 2, 'getBrands', 'interactive');
    expect(grants.map((t) => t - t0)).toEqual([3_000, 4_000]);
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
