/**
 * The brand list, kept for a minute: almost every command resolves a brand name, and
 * asking GET /get-brands each time would spend the key's rate budget on the same answer.
 * Concurrent callers share one request. Commands that change brands call `invalidate()`.
 */

import type { Brand } from '../api/schemas/index.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import type { Clock } from '../clock.js';

export const BRAND_CACHE_TTL_MS = 60_000;

export interface BrandCache {
  list(opts?: CallOptions): Promise<Brand[]>;
  invalidate(): void;
}

export function createBrandCache(
  api: Pick<VisibilityApi, 'getBrands'>,
  clock: Clock,
  ttlMs = BRAND_CACHE_TTL_MS,
): BrandCache {
  let cached: { at: number; brands: Promise<Brand[]> } | undefined;
  return {
    list(opts) {
      if (cached && clock.now() - cached.at < ttlMs) return cached.brands;
      const entry = {
        at: clock.now(),
        brands: api.getBrands({}, { lane: 'interactive', ...opts }).then((r) => r.brands),
      };
      // A failure is not cached: the next command asks again.
      entry.brands.catch(() => {
        if (cached === entry) cached = undefined;
      });
      cached = entry;
      return entry.brands;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
