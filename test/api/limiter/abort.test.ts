/** acquire honours an AbortSignal: it rejects with AbortedError and leaves the queue. */
import { afterEach, describe, expect, it } from 'vitest';
import { AbortedError } from '../../../src/api/errors.js';
import { type LimiterFixture, limiterFixture, stateOf } from './limiter-test-kit.js';

let f: LimiterFixture;
afterEach(() => f.cleanup());

describe('abort', () => {
  it('rejects a waiting acquire with AbortedError, removes it, and lets the next waiter have its turn', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 1 } });
    const limiter = f.limiter();
    const t0 = f.clock.now();
    await limiter.acquire('getBrands', 'interactive');

    const controller = new AbortController();
    const aborted = limiter.acquire('getBrands', 'interactive', controller.signal);
    const next = limiter.acquire('getBrands', 'interactive');
    expect((await stateOf(limiter)).lanes.interactive.queued).toBe(2);

    await f.clock.sleep(300);
    controller.abort(new Error('user left'));
    const error = await aborted.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toEqual(new Error('user left'));
    expect((await stateOf(limiter)).lanes.interactive.queued).toBe(1);

    await next;
    expect(f.clock.now() - t0).toBe(1_000);
    expect((await stateOf(limiter)).usedToday).toBe(2);
  });

  it('rejects at once, counting nothing, when the signal is already aborted', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    await expect(limiter.acquire('getBrands', 'interactive', AbortSignal.abort())).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(await stateOf(limiter)).toMatchObject({ usedToday: 0, tokens: 100 });
  });

  it('an abort after the grant changes nothing', async () => {
    f = limiterFixture();
    const limiter = f.limiter();
    const controller = new AbortController();
    await limiter.acquire('getBrands', 'interactive', controller.signal);
    controller.abort();
    expect((await stateOf(limiter)).usedToday).toBe(1);
  });

  it('close() rejects every waiter and later acquires', async () => {
    f = limiterFixture({ endpointPerMinute: null, limits: { burst: 1 } });
    const limiter = f.limiter();
    await limiter.acquire('getBrands', 'interactive');
    const waiting = limiter.acquire('getBrands', 'background');
    limiter.close();
    await expect(waiting).rejects.toBeInstanceOf(AbortedError);
    await expect(limiter.acquire('getBrands', 'interactive')).rejects.toBeInstanceOf(AbortedError);
  });
});
