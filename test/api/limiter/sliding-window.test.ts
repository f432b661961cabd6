import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drainAfterPause, msUntilWindowSlot } from '../../../src/api/limiter/sliding-window.js';
import { maxInAnyWindow } from './limiter-test-kit.js';

describe('sliding window math', () => {
  it('allows up to the limit, then waits for the oldest send to leave the window', () => {
    expect(msUntilWindowSlot([], 3, 1_000, 0)).toBe(0);
    expect(msUntilWindowSlot([0, 10], 3, 1_000, 20)).toBe(0);
    expect(msUntilWindowSlot([0, 10, 20], 3, 1_000, 30)).toBe(970);
    expect(msUntilWindowSlot([0, 10, 20], 3, 1_000, 1_000)).toBe(0);
  });

  it('keeps slots free when asked (the background lane leaves one for interactive callers)', () => {
    expect(msUntilWindowSlot([0, 10], 3, 1_000, 20, 2)).toBe(980);
    expect(msUntilWindowSlot([0], 3, 1_000, 20, 2)).toBe(0);
    expect(msUntilWindowSlot([], 1, 1_000, 0, 2)).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts placeholder sends that lie in the future', () => {
    // A paused endpoint: 2 placeholders expiring at 1000 and 1500.
    expect(msUntilWindowSlot([0, 500], 2, 1_000, 100)).toBe(900);
  });

  it('after a pause, drains at the window rate from its end', () => {
    // 3 per 1000 ms, paused until 5000: slots free at 5000, 5334, 5667.
    const drained = drainAfterPause([], 3, 1_000, 5_000);
    expect(drained).toEqual([4_000, 4_334, 4_667]);
    expect(msUntilWindowSlot(drained, 3, 1_000, 4_999)).toBe(1);
    expect(msUntilWindowSlot(drained, 3, 1_000, 5_000)).toBe(0);
  });

  it('after a pause, still honours real sends that leave the window later than the drain would', () => {
    // Three sends just before a 429 whose Retry-After is short: they hold the window longer.
    expect(drainAfterPause([4_900, 4_950, 4_990], 3, 1_000, 5_000)).toEqual([4_900, 4_950, 4_990]);
    expect(drainAfterPause([4_100, 4_500, 4_990], 3, 1_000, 5_000)).toEqual([4_100, 4_500, 4_990]);
    expect(drainAfterPause([3_000, 4_500], 3, 1_000, 5_000)).toEqual([4_000, 4_334, 4_667]);
  });

  it('pausing twice until the same moment changes nothing', () => {
    const once = drainAfterPause([3_000, 4_200], 3, 1_000, 5_000);
    expect(drainAfterPause(once, 3, 1_000, 5_000)).toEqual(once);
  });

  it('never lets more than the limit into any window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 100 }),
        (limit, gaps) => {
          const sends: number[] = [];
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            now += msUntilWindowSlot(sends, limit, 1_000, now);
            sends.push(now);
          }
          return maxInAnyWindow(sends, 1_000) <= limit;
        },
      ),
    );
  });
});
