import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evenlySpaced } from '../../src/charts/evenly-spaced.js';

describe('evenlySpaced', () => {
  it('keeps everything that fits, and the first and the last of a longer run', () => {
    expect(evenlySpaced([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(evenlySpaced([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4)).toEqual([1, 4, 7, 10]);
    expect(evenlySpaced([1, 2, 3], 1)).toEqual([3]);
  });

  it('returns at most max items, in order, without repeats, ends included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 2, max: 40 }), (n, max) => {
        const items = Array.from({ length: n }, (_, i) => i);
        const kept = evenlySpaced(items, max);
        expect(kept.length).toBe(Math.min(n, max));
        for (let i = 1; i < kept.length; i++) expect(kept[i]!).toBeGreaterThan(kept[i - 1]!);
        if (n > 0) expect([kept[0], kept.at(-1)]).toEqual([0, n - 1]);
      }),
    );
  });
});
