/**
 * Time as a seam: every timing-dependent module takes a Clock so tests can run in
 * milliseconds. `sleep` rejects with the signal's reason when aborted.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Milliseconds from an arbitrary origin, never going back: for measuring how long something
 * took. Not the global `performance.now()`: its first use loads perf_hooks, a few
 * milliseconds a short `run-job` need not spend.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    if (ms <= 0) {
      signal?.throwIfAborted();
      return;
    }
    await delay(ms, undefined, signal ? { signal } : undefined);
  },
};
