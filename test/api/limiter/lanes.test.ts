/**
 * Interactive before background: in-process by the dispatcher's order, across processes
 * by the background lane's headroom of one token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InteractiveReserve } from '../../../src/api/limiter/interactive-reserve.js';
import { acquireMany, type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

const TOKEN_INTERVAL = 1_000; // scale: 60/min

describe('lanes', () => {
  it('an interactive call overtakes a saturated background lane and waits at most one token interval', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 10 } });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    const background = acquireMany(limiter, f.clock, 200, 'getCitations', 'background');

    const waits: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Arrive at awkward moments: just after a token went to the background lane, and between.
      await f.clock.sleep(i % 2 === 0 ? 3_001 : 2_437);
      const arrived = f.clock.now();
      // Three people at once: each waits at most one more interval than the one before.
      const grants = await acquireMany(limiter, f.clock, 3, 'getBrands', 'interactive');
      grants
        .sort((a, b) => a - b)
        .forEach((t, k) => {
          waits.push(t - arrived - k * TOKEN_INTERVAL);
        });
      expect((await stateOf(limiter)).lanes.background.queued).toBeGreaterThan(0);
    }
    expect(Math.max(...waits)).toBeLessThanOrEqual(TOKEN_INTERVAL);
    const bg = await background;
    // Background was FIFO and kept draining at the refill rate around the interactive calls;
    // its headroom costs one token of the burst of 10, not throughput.
    expect(bg).toEqual([...bg].sort((a, b) => a - b));
    expect(Math.max(...bg) - t0).toBe((200 + 60 - 9) * TOKEN_INTERVAL);
    expect((await stateOf(limiter)).waitedMs.background).toBeGreaterThan(
      (await stateOf(limiter)).waitedMs.interactive,
    );
  });

  it('grants queued interactive waiters before background ones, FIFO within each lane', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 1 } });
    const limiter = f.limiter();
    await limiter.acquire('getBrands', 'interactive'); // empty the bucket
    const order: string[] = [];
    const calls = [
      ['b1', 'background'],
      ['i1', 'interactive'],
      ['b2', 'background'],
      ['i2', 'interactive'],
    ] as const;
    await Promise.all(
      calls.map(async ([name, lane]) => {
        await limiter.acquire('getBrands', lane);
        order.push(name);
      }),
    );
    expect(order).toEqual(['i1', 'i2', 'b1', 'b2']);
  });

  it('grants interactive calls by the arrival of their command, however they interleave', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 1 } });
    const limiter = f.limiter();
    await limiter.acquire('getBrands', 'interactive'); // empty the bucket: 1 token/s from here
    const order: string[] = [];
    /** A command: looks the brand up, then (only once that call went) asks for the data. */
    const command = async (name: string, arrivedAt: number | undefined) => {
      await limiter.acquire('getBrands', 'interactive', undefined, arrivedAt);
      order.push(`${name} brands`);
      await limiter.acquire('getCitations', 'interactive', undefined, arrivedAt);
      order.push(`${name} data`);
    };
    const t0 = f.clock.now();
    // A's data call is queued when its brand call is granted, after B's and C's brand calls;
    // FIFO per call would grant A brands, B brands, C brands, A data, B data, C data.
    // A call without priority (the App Home) ranks by when it was queued.
    const home = (async () => {
      await f.clock.sleep(1_500);
      await limiter.acquire('getBrands', 'interactive');
      order.push('home');
    })();
    await Promise.all([command('A', t0), command('B', t0 + 1), command('C', t0 + 2), home]);
    expect(order).toEqual(['A brands', 'A data', 'B brands', 'B data', 'C brands', 'C data', 'home']);
  });

  it('keeps the background lane FIFO whatever priority its calls carry', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 1 } });
    const limiter = f.limiter();
    await limiter.acquire('getBrands', 'background');
    const order: number[] = [];
    await Promise.all(
      [30, 20, 10].map(async (priority, i) => {
        await limiter.acquire('getCitations', 'background', undefined, f.clock.now() - priority);
        order.push(i);
      }),
    );
    expect(order).toEqual([0, 1, 2]);
  });

  it('a waiter whose endpoint window is full does not hold up the others in its lane', async () => {
    f = limiterFixture({ plan: 'enterprise' });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await acquireMany(limiter, f.clock, 10, 'refreshContentIdeas', 'interactive');
    const blocked = limiter.acquire('refreshContentIdeas', 'interactive');
    await limiter.acquire('getBrands', 'interactive');
    expect(f.clock.now()).toBe(t0);
    await blocked;
    expect(f.clock.now()).toBe(t0 + 60_000);
  });

  it('the background lane leaves a token for an interactive caller in another process', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 5 } });
    const jobs = f.limiter();
    const serve = f.limiter({ db: f.file.open() });
    const background = acquireMany(jobs, f.clock, 40, 'getCitations', 'background');

    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      await f.clock.sleep(2_500);
      const arrived = f.clock.now();
      await serve.acquire('getBrands', 'interactive');
      waits.push(f.clock.now() - arrived);
    }
    await background;
    // The background burst stopped at 4 of 5 tokens, and each background take leaves one.
    expect(waits.every((w) => w === 0)).toBe(true);
  });

  it('the background lane keeps a slot of an endpoint window free too', async () => {
    f = limiterFixture({ plan: 'enterprise' });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    const background = acquireMany(limiter, f.clock, 30, 'refreshContentIdeas', 'background').catch(() => []);
    await f.clock.sleep(1);
    await limiter.acquire('refreshContentIdeas', 'interactive');
    expect(f.clock.now()).toBe(t0 + 1);
    expect((await stateOf(limiter)).lanes.background.queued).toBe(21);
    limiter.close();
    await background;
  });
});

describe('interactive reserve', () => {
  it('grows to the largest recent burst of interactive calls and shrinks back after its span', async () => {
    const r = new InteractiveReserve({ togetherMs: 1_000, spanMs: 60_000, maxTokens: 10 });
    expect(r.tokens(0)).toBe(1);
    for (let i = 0; i < 5; i++) r.arrived(100);
    expect(r.tokens(200)).toBe(5);
    // Calls a token interval apart are not a burst.
    r.arrived(5_000);
    r.arrived(7_000);
    expect(r.tokens(7_000)).toBe(5);
    expect(r.tokens(60_101)).toBe(1);
    for (let i = 0; i < 50; i++) r.arrived(70_000);
    expect(r.tokens(70_000)).toBe(10);
  });

  it('after a burst of 5, the next burst of 5 goes at once while jobs drain the key', async () => {
    // Scale's bucket: the reserve may grow to a tenth of it (10 tokens).
    f = limiterFixture({ endpointPerMinute: null });
    const limiter = f.limiter();
    const background = acquireMany(limiter, f.clock, 400, 'getBrands', 'background');
    // Let the background lane drain the bucket to its floor.
    await f.clock.sleep(30_000);
    const t1 = f.clock.now();
    const first = await acquireMany(limiter, f.clock, 5, 'getCitations', 'interactive');
    // The first burst finds the reserve of one (plus the token refilled this second): the
    // others wait for refills at 1/s.
    expect(first.map((g) => g - t1)).toEqual([0, 0, 1_000, 2_000, 3_000]);
    await f.clock.sleep(20_000);
    const t = f.clock.now();
    const second = await acquireMany(limiter, f.clock, 5, 'getCitations', 'interactive');
    // With the reserve at 5, all five of the second burst are granted without a wait.
    expect(second.map((g) => g - t)).toEqual([0, 0, 0, 0, 0]);
    limiter.close();
    await background.catch(() => undefined);
  });
});
