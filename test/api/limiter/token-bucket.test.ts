import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { msUntilTokens, refill, take } from '../../../src/api/limiter/token-bucket.js';
import { worstBucketExcess } from './limiter-test-kit.js';

// Scale plan as docs/api.md §8 reads it: bucket of 100 refilled at 1 token/s.
const scale = { capacity: 100, refillPerMs: 60 / 60_000 };

describe('token bucket math', () => {
  it('refills at the per-minute rate and never above capacity', () => {
    expect(refill({ tokens: 0, atMs: 0 }, scale, 10_000)).toEqual({ tokens: 10, atMs: 10_000 });
    expect(refill({ tokens: 95, atMs: 0 }, scale, 10_000).tokens).toBe(100);
  });

  it('does not refill before a level that starts in the future (a bucket restarting after a pause)', () => {
    const level = { tokens: 0, atMs: 5_000 };
    expect(refill(level, scale, 3_000)).toBe(level);
    expect(msUntilTokens(level, scale, 3_000, 1)).toBe(2_000 + 1_000);
  });

  it('says how long until enough tokens are there', () => {
    expect(msUntilTokens({ tokens: 3, atMs: 0 }, scale, 0, 1)).toBe(0);
    expect(msUntilTokens({ tokens: 0.5, atMs: 0 }, scale, 0, 1)).toBeCloseTo(500);
    expect(msUntilTokens({ tokens: 0, atMs: 0 }, scale, 0, 2)).toBeCloseTo(2_000);
    expect(msUntilTokens({ tokens: 0, atMs: 0 }, scale, 0, 101)).toBe(Number.POSITIVE_INFINITY);
  });

  it('takes one token only when the needed amount is there', () => {
    expect(take({ tokens: 1, atMs: 0 }, scale, 0)).toEqual({ tokens: 0, atMs: 0 });
    expect(take({ tokens: 1, atMs: 0 }, scale, 0, 2)).toBeNull();
    expect(take({ tokens: 0, atMs: 0 }, scale, 999)).toBeNull();
    expect(take({ tokens: 0, atMs: 0 }, scale, 1_000)).toEqual({ tokens: 0, atMs: 1_000 });
  });

  it('counts a bucket refilled for exactly the computed wait as ready (no float drift)', () => {
    const params = { capacity: 7, refillPerMs: 7 / 3_000 };
    const level = { tokens: 0.1, atMs: 0 };
    const wait = msUntilTokens(level, params, 0, 1);
    expect(take(level, params, wait)).not.toBeNull();
  });

  it('never lets through more than capacity + refill over any interval, however callers arrive', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 150 }),
        (capacity, perMinute, gaps) => {
          const params = { capacity, refillPerMs: perMinute / 60_000 };
          let level = { tokens: capacity, atMs: 0 };
          let now = 0;
          const grants: number[] = [];
          for (const gap of gaps) {
            now += gap;
            // A caller that waits exactly as long as the bucket says, as the dispatcher does.
            now += msUntilTokens(level, params, now, 1);
            const next = take(level, params, now);
            if (next === null) return false;
            level = next;
            grants.push(now);
          }
          return worstBucketExcess(grants, capacity, params.refillPerMs, 1e-6) <= 0;
        },
      ),
    );
  });
});
