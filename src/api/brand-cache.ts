/**
 * The brand list, kept for a minute: almost every command resolves a brand name, and
 * asking GET /get-brands each time would spend the key's rate budget on the same answer.
 * Single-flight: while a fetch is in flight every caller that needs one shares it. Commands
 * that change brands or their aliases call `invalidate()`. Each brand carries its aliases
 * (`include=aliases`, docs/api.md §4.3): the resolver matches them, at no extra call.
 */

import type { Clock } from '../clock.js';
import type { Brand } from './schemas/index.js';
import type { CallOptions, VisibilityApi } from './visibility-api.js';

export const BRAND_CACHE_TTL_MS = 60_000;

type BrandsApi = Pick<VisibilityApi, 'getBrands'>;

export interface BrandCache {
  /** A list fetched at most the TTL ago, or the fetch in flight, or a new fetch. */
  list(opts?: CallOptions): Promise<Brand[]>;
  /**
   * A list fetched from now on: the fetch in flight if there is one (it has not answered
   * yet), else a new one. For `brands`, which is how people check for a brand just added.
   */
  refresh(opts?: CallOptions): Promise<Brand[]>;
  /** Forgets the list and any fetch in flight (it may predate the change). */
  invalidate(): void;
  /**
   * The same cache (one list, one fetch in flight) fetching through `api`: a request's
   * API, so a fetch it starts queues with that request's lane and priority.
   */
  withApi(api: BrandsApi): BrandCache;
}

interface Fetch {
  /** When the fetch started: the list is as old as this, not as its answer. */
  at: number;
  brands: Promise<Brand[]>;
}

export function createBrandCache(api: BrandsApi, clock: Clock, ttlMs = BRAND_CACHE_TTL_MS): BrandCache {
  let settled: { at: number; brands: Brand[] } | undefined;
  let inFlight: Fetch | undefined;

  function start(through: BrandsApi, opts: CallOptions | undefined): Promise<Brand[]> {
    const entry: Fetch = {
      at: clock.now(),
      // Aliases ride along in the same call: brand names are resolved by alias too.
      brands: through
        .getBrands({ include: ['aliases'] }, { lane: 'interactive', ...opts })
        .then((r) => r.brands),
    };
    inFlight = entry;
    entry.brands.then(
      (brands) => {
        // Unless invalidated meanwhile: then this answer may predate the change.
        if (inFlight !== entry) return;
        inFlight = undefined;
        settled = { at: entry.at, brands };
      },
      () => {
        // A failure is not cached: the next command asks again.
        if (inFlight === entry) inFlight = undefined;
      },
    );
    return entry.brands;
  }

  function view(through: BrandsApi): BrandCache {
    return {
      list(opts) {
        if (settled && clock.now() - settled.at < ttlMs) return Promise.resolve(settled.brands);
        return inFlight?.brands ?? start(through, opts);
      },
      refresh(opts) {
        return inFlight?.brands ?? start(through, opts);
      },
      invalidate() {
        settled = undefined;
        inFlight = undefined;
      },
      withApi: view,
    };
  }

  return view(api);
}
