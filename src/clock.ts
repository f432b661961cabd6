/**
 * Time as a seam: every timing-dependent module takes a Clock so tests can run in
 * milliseconds. `sleep` rejects with the signal's reason when aborted.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

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
