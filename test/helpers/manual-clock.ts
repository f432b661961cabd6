/**
 * A clock that stands still until told: `advance` and `set` move it, and a sleep moves it
 * forward at once (as a real sleep would end later) and lets other work run, so code that
 * waits runs in no real time.
 */
import type { Clock } from '../../src/clock.js';

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function manualClock(startMs: number): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      now += Math.max(0, ms);
      // Let other work run, as a real sleep would.
      await new Promise((resolve) => setImmediate(resolve));
    },
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
