/**
 * The brand cache: one GET /get-brands in flight at a time, shared by every caller that
 * needs one; a list up to a minute old for `list`, a fetch from now on for `refresh`.
 */
import { describe, expect, it } from 'vitest';
import { BRAND_CACHE_TTL_MS, createBrandCache } from '../../src/api/brand-cache.js';
import type { Brand, BrandsResponse } from '../../src/api/schemas/index.js';
import type { CallOptions, GetBrandsParams, VisibilityApi } from '../../src/api/visibility-api.js';
import type { Clock } from '../../src/clock.js';

const brand = (name: string) => ({ id: `id-${name}`, name }) as Brand;

/** getBrands whose answers the test gives, one call at a time. */
function fakeApi() {
  const calls: Array<{
    opts: CallOptions | undefined;
    answer(names: string[]): void;
    fail(error: Error): void;
  }> = [];
  const api: Pick<VisibilityApi, 'getBrands'> = {
    getBrands(_params?: GetBrandsParams, opts?: CallOptions) {
      return new Promise<BrandsResponse>((resolve, reject) => {
        calls.push({
          opts,
          answer: (names) => resolve({ brands: names.map(brand) } as BrandsResponse),
          fail: reject,
        });
      });
    },
  };
  return { api, calls };
}

function manualClock() {
  let t = 1_000_000;
  const clock: Clock = { now: () => t, sleep: async () => {} };
  return {
    clock,
    advance(ms: number) {
      t += ms;
    },
  };
}

const names = (list: Brand[]) => list.map((b) => b.name);

describe('brand cache', () => {
  it('concurrent callers share one fetch; the list serves for the TTL, then is fetched again', async () => {
    const { api, calls } = fakeApi();
    const time = manualClock();
    const cache = createBrandCache(api, time.clock);
    const waiting = [cache.list(), cache.list({ lane: 'interactive' }), cache.refresh()];
    expect(calls).toHaveLength(1);
    calls[0]!.answer(['Acme']);
    for (const list of await Promise.all(waiting)) expect(names(list)).toEqual(['Acme']);

    time.advance(BRAND_CACHE_TTL_MS - 1);
    expect(names(await cache.list())).toEqual(['Acme']);
    expect(calls).toHaveLength(1);
    time.advance(1);
    const stale = cache.list();
    expect(calls).toHaveLength(2);
    calls[1]!.answer(['Acme', 'Globex']);
    expect(names(await stale)).toEqual(['Acme', 'Globex']);
  });

  it('refresh fetches afresh unless a fetch is in flight, and list callers keep the cached list meanwhile', async () => {
    const { api, calls } = fakeApi();
    const time = manualClock();
    const cache = createBrandCache(api, time.clock);
    const first = cache.list();
    calls[0]!.answer(['Acme']);
    await first;

    // Ten `brands` at once: one new fetch, not ten.
    const refreshes = Array.from({ length: 10 }, () => cache.refresh());
    expect(calls).toHaveLength(2);
    // A brand lookup does not wait for the refresh: the cached list is a minute fresh.
    expect(names(await cache.list())).toEqual(['Acme']);
    calls[1]!.answer(['Acme', 'Initech']);
    for (const list of await Promise.all(refreshes)) expect(names(list)).toEqual(['Acme', 'Initech']);
    expect(names(await cache.list())).toEqual(['Acme', 'Initech']);

    // Nothing in flight any more: the next refresh asks again.
    void cache.refresh();
    expect(calls).toHaveLength(3);
  });

  it('a failure is not cached, and invalidate drops a fetch in flight that may predate a change', async () => {
    const { api, calls } = fakeApi();
    const time = manualClock();
    const cache = createBrandCache(api, time.clock);
    const failing = cache.list();
    calls[0]!.fail(new Error('503'));
    await expect(failing).rejects.toThrow('503');

    const beforeChange = cache.list();
    expect(calls).toHaveLength(2);
    cache.invalidate();
    const afterChange = cache.list();
    expect(calls).toHaveLength(3);
    calls[1]!.answer(['Acme']);
    calls[2]!.answer(['Acme', 'Umbrella']);
    expect(names(await beforeChange)).toEqual(['Acme']);
    expect(names(await afterChange)).toEqual(['Acme', 'Umbrella']);
    // The older answer, arriving after the invalidation, did not become the cached list.
    expect(names(await cache.list())).toEqual(['Acme', 'Umbrella']);
    expect(calls).toHaveLength(3);
  });

  it('withApi shares the list and the fetch in flight, and fetches through the given API', async () => {
    const shared = fakeApi();
    const request = fakeApi();
    const cache = createBrandCache(shared.api, manualClock().clock);
    const view = cache.withApi(request.api);
    const viaView = view.list({ lane: 'interactive', priority: 7 });
    const viaShared = cache.list();
    expect(shared.calls).toHaveLength(0);
    expect(request.calls).toHaveLength(1);
    expect(request.calls[0]!.opts).toEqual({ lane: 'interactive', priority: 7 });
    request.calls[0]!.answer(['Acme']);
    expect(names(await viaShared)).toEqual(['Acme']);
    expect(names(await viaView)).toEqual(['Acme']);
    view.invalidate();
    void cache.list();
    expect(shared.calls).toHaveLength(1);
  });
});
