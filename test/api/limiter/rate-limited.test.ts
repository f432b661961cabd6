/**
 * Reacting to 429s and to X-RateLimit-* headers: who pauses, for how long, that the pause
 * is shared through SQLite, and that the key resumes at the refill rate, not all at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { acquireMany, type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

const KEY_429 = 'Rate limit exceeded: 60 per 1 minute';

describe('429', () => {
  it('with Retry-After pauses the whole key, then drains at the refill rate', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    limiter.observe('getBrands', { status: 429, retryAfterMs: 5_000, message: KEY_429 });

    const state = await stateOf(limiter);
    expect(state.keyPausedUntil).toBe(t0 + 5_000);
    expect(state.endpointPauses.getBrands).toBe(t0 + 5_000);
    expect(state.rateLimitedCount).toBe(1);

    // Another endpoint waits too; after the pause the bucket restarts empty (1 token/s),
    // and the 429 widened the safety margin by 5 tokens (5 % of 100): one token each
    // second once 5 + 1 have refilled.
    const grants = await acquireMany(limiter, f.clock, 4, 'getCitations', 'interactive');
    expect(grants.map((t) => t - t0)).toEqual([11_000, 12_000, 13_000, 14_000]);
  });

  it('adds jitter of up to maxJitterMs to the pause', async () => {
    f = limiterFixture({ random: () => 0.5, maxJitterMs: 800 });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    limiter.observe('getBrands', { status: 429, retryAfterMs: 1_000 });
    expect((await stateOf(limiter)).keyPausedUntil).toBe(t0 + 1_400);
  });

  it('"30 per 1 minute" on a brand write with a 60/min key pauses only the brand-writes group', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    limiter.observe('addMarket', {
      status: 429,
      retryAfterMs: 10_000,
      message: 'Rate limit exceeded: 30 per 1 minute',
    });

    const state = await stateOf(limiter);
    expect(state.keyPausedUntil).toBeNull();
    expect(state.endpointPauses).toEqual({
      addMarket: t0 + 10_000,
      removeMarket: t0 + 10_000,
      setLocation: t0 + 10_000,
      setAliases: t0 + 10_000,
    });

    const [writes, reads] = await Promise.all([
      acquireMany(limiter, f.clock, 3, 'setAliases', 'interactive'),
      acquireMany(limiter, f.clock, 3, 'getBrands', 'interactive'),
    ]);
    expect(reads.every((t) => t === t0)).toBe(true);
    // After the pause the group drains at its own rate: one per 60 s / 30 = 2 s.
    expect(writes.map((t) => t - t0)).toEqual([10_000, 12_000, 14_000]);
  });

  it('several 429s for one group (requests that were in flight) still drain it at its rate', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    for (let i = 0; i < 5; i++) {
      limiter.observe('setLocation', { status: 429, retryAfterMs: 10_000, message: '30 per 1 minute' });
    }
    const writes = await acquireMany(limiter, f.clock, 3, 'addMarket', 'interactive');
    expect(writes.map((t) => t - t0)).toEqual([10_000, 12_000, 14_000]);
  });

  it('without Retry-After waits for the delay named in the message', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    limiter.observe('getBrands', { status: 429, message: 'Too many requests, retry in 2 seconds' });
    expect((await stateOf(limiter)).keyPausedUntil).toBe(t0 + 2_000);
  });

  it('without Retry-After or a delay in the text waits defaultRetryAfterMs ("60 per 1 minute" is a rate)', async () => {
    f = limiterFixture({ defaultRetryAfterMs: 250, windowMs: 1_000, limits: { perMinute: 60, burst: 100 } });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    limiter.observe('getBrands', { status: 429, message: KEY_429 });
    expect((await stateOf(limiter)).keyPausedUntil).toBe(t0 + 250);
    await limiter.acquire('getBrands', 'interactive');
    // 250 ms pause, then the empty bucket (60 per 1000 ms) refills the 429's margin of 5
    // tokens and the one to send.
    expect(f.clock.now() - t0).toBe(250 + 100);
  });

  it('with no information at all pauses the key for the default', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    limiter.observe('addMarket', { status: 429 });
    expect((await stateOf(limiter)).keyPausedUntil).toBe(t0 + 60_000);
  });

  it('persists the pause: another limiter on the file (another process, or a restart) waits too', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const serve = f.limiter();
    const t0 = f.clock.now();
    serve.observe('getBrands', { status: 429, retryAfterMs: 30_000, message: KEY_429 });
    // observe() only queues the reaction; closing lets it finish (as a process stopping does).
    await serve.close();

    const runJob = f.limiter({ db: f.file.open() });
    expect((await stateOf(runJob)).keyPausedUntil).toBe(t0 + 30_000);
    expect((await stateOf(runJob)).endpointPauses.getBrands).toBe(t0 + 30_000);
    await runJob.acquire('getCitations', 'background');
    expect(f.clock.now() - t0).toBeGreaterThanOrEqual(30_000);
  });

  it('a daily limit named in the 429 marks the day spent', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    limiter.observe('getBrands', { status: 429, message: 'Rate limit exceeded: 10000 per 1 day' });
    expect((await stateOf(limiter)).usedToday).toBe(10_000);
    await expect(limiter.acquire('getBrands', 'interactive')).rejects.toMatchObject({
      code: 'api_quota_exhausted',
    });
  });
});

describe('X-RateLimit-* headers', () => {
  it('lowers the bucket when the server counts fewer requests left', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    expect((await stateOf(limiter)).tokens).toBe(100);
    limiter.observe('getBrands', {
      status: 200,
      limit: 60,
      remaining: 12,
      resetAtMs: f.clock.now() + 30_000,
    });
    expect((await stateOf(limiter)).tokens).toBe(12);
    // A higher count never raises it.
    limiter.observe('getBrands', { status: 200, limit: 60, remaining: 50 });
    expect((await stateOf(limiter)).tokens).toBe(12);
  });

  it('a Remaining our own later grants explain leaves the bucket (and its refill) alone', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 10 } }, { unanswered: true });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 10, 'getBrands', 'interactive');
    // The first answer comes 3 s later and says 0 left: the nine sent after it explain
    // that (they may have reached the service first), so the 3 refilled tokens stay.
    await f.clock.sleep(3_000);
    limiter.observe('getBrands', { status: 200, limit: 100_000, remaining: 0, resetAtMs: t0 + 4_000 });
    expect((await stateOf(limiter)).tokens).toBeCloseTo(3);
    // The margin keeps 3 back (the first answer took 3 s): one more token, then it goes.
    await limiter.acquire('getBrands', 'interactive');
    expect(f.clock.now() - t0).toBe(4_000);
  });

  it('a Remaining below what our later grants explain takes the shortfall from the bucket', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 10 } }, { unanswered: true });
    const limiter = f.limiter();
    await acquireMany(limiter, f.clock, 4, 'getBrands', 'interactive');
    // After the first grant 9 were left and 3 more were sent: 6 expected, 2 reported, so
    // another client spent 4.
    limiter.observe('getBrands', { status: 200, limit: 100_000, remaining: 2 });
    expect((await stateOf(limiter)).tokens).toBe(2);
  });

  it('with remaining 0 sends nothing before the reset, when our own log shows that window spent', async () => {
    f = limiterFixture({ endpointPerMinute: null });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    // A fixed 60-per-minute window: our 60 sends spent it, though our bucket of 100 has 40 left.
    await acquireMany(limiter, f.clock, 60, 'getBrands', 'interactive');
    limiter.observe('getBrands', { status: 200, limit: 60, remaining: 0, resetAtMs: t0 + 7_000 });
    expect(await stateOf(limiter)).toMatchObject({ keyPausedUntil: t0 + 7_000, tokens: 0 });
    await limiter.acquire('getCitations', 'interactive');
    expect(f.clock.now() - t0).toBe(7_000);
  });

  it('with remaining 0 from a limit the headers do not name, empties the bucket and refills it at the rate', async () => {
    // The simulator's shape: Limit and Reset describe the endpoint's window (here a huge
    // one), Remaining the smallest of all limits, here the key's bucket.
    f = limiterFixture({ endpointPerMinute: null });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 30, 'getBrands', 'interactive');
    limiter.observe('getBrands', { status: 200, limit: 100_000, remaining: 0, resetAtMs: t0 + 60_000 });
    expect(await stateOf(limiter)).toMatchObject({ keyPausedUntil: null, tokens: 0 });
    await limiter.acquire('getBrands', 'interactive');
    expect(f.clock.now() - t0).toBe(1_000);
  });

  it('caps a reset further than one window away (clock disagreement)', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 60, (i) => (i % 2 ? 'getCitations' : 'getBrands'), 'interactive');
    limiter.observe('getBrands', { status: 200, remaining: 0, resetAtMs: t0 + 3_600_000 });
    expect((await stateOf(limiter)).keyPausedUntil).toBe(t0 + 60_000);
  });

  it("applies an endpoint's own window (X-RateLimit-Limit 30 on a brand write) to that endpoint only", async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 30, (i) => (i % 2 ? 'setAliases' : 'addMarket'), 'interactive');
    limiter.observe('setAliases', { status: 200, limit: 30, remaining: 0, resetAtMs: t0 + 4_000 });
    const state = await stateOf(limiter);
    expect(state.keyPausedUntil).toBeNull();
    expect(state.tokens).toBe(70);
    expect(state.endpointPauses.addMarket).toBe(t0 + 4_000);
    await limiter.acquire('getBrands', 'interactive');
    expect(f.clock.now()).toBe(t0);
    // The sliding window would have held it for a minute; the server's window resets sooner.
    await limiter.acquire('removeMarket', 'interactive');
    expect(f.clock.now()).toBe(t0 + 60_000);
  });

  it("treats a brand write's remaining 0 with room in its window as the key's bucket", async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 2, 'addMarket', 'interactive');
    limiter.observe('addMarket', { status: 200, limit: 30, remaining: 0, resetAtMs: t0 + 50_000 });
    expect(await stateOf(limiter)).toMatchObject({ keyPausedUntil: null, endpointPauses: {}, tokens: 0 });
    await limiter.acquire('setLocation', 'interactive');
    expect(f.clock.now() - t0).toBe(1_000);
  });

  it('works without them', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    limiter.observe('getBrands', { status: 200 });
    expect(await stateOf(limiter)).toMatchObject({ tokens: 100, keyPausedUntil: null, endpointPauses: {} });
  });
});

describe('robustness', () => {
  it('never throws from observe (a response must not fail because its bookkeeping did)', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    f.db.close();
    expect(() => limiter.observe('getBrands', { status: 429, retryAfterMs: 1_000 })).not.toThrow();
    // state() answers from the last read of the budget (metrics and /healthz keep working).
    expect(limiter.state().tokens).toBe(100);
    // acquire reports the database failure instead of hanging.
    await expect(limiter.acquire('getBrands', 'interactive')).rejects.toMatchObject({
      code: 'limiter_budget_store_failed',
    });
  });
});
