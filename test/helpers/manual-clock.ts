/**
 * A clock that stands still until told: `advance` moves it, and a sleep moves it forward at
 * once (as a real sleep would end later), so code that waits runs in no real time.
 */
import type { Clock } from '../../src/clock.js';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(startMs: number): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      now += Math.max(0, ms);
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
