/**
 * A clock that runs `rate` times faster than the wall clock, for benchmarks that compress
 * hours into seconds: every timer (limiter, relay pace, scheduler ticks) sees the same
 * compressed time. The bench may speed it up, slow it down or jump it forward over idle
 * stretches; it never goes back.
 */
import type { Clock } from '../../src/clock.js';

export interface ScaledClock extends Clock {
  /** Compressed ms per real ms from now on. */
  setRate(rate: number): void;
  /** Jumps forward to `atMs` (no-op when it has passed). Timers already set keep their real delay. */
  jumpTo(atMs: number): void;
  readonly rate: number;
}

export function scaledClock(startMs: number, initialRate: number): ScaledClock {
  let base = startMs;
  let realBase = performance.now();
  let rate = initialRate;
  const exact = () => base + (performance.now() - realBase) * rate;
  const rebase = (to: number) => {
    base = to;
    realBase = performance.now();
  };
  return {
    now: () => Math.floor(exact()),
    get rate() {
      return rate;
    },
    setRate(next) {
      rebase(exact());
      rate = next;
    },
    jumpTo(atMs) {
      if (atMs > exact()) rebase(atMs);
    },
    sleep(ms, signal) {
      signal?.throwIfAborted();
      if (ms <= 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', abort);
          resolve();
        }, ms / rate);
        const abort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', abort, { once: true });
      });
    },
  };
}
