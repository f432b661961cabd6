/**
 * A limiter that never waits, for tools and tests that must not pace (and for the
 * benchmark's baselines, which pace with p-throttle or Bottleneck instead).
 */
import { abortedWhileWaiting } from './aborted-while-waiting.js';
import type { RateLimiter } from './types.js';

export function unlimitedLimiter(): RateLimiter {
  let rateLimitedCount = 0;
  return {
    async acquire(_endpoint, _lane, signal) {
      if (signal?.aborted) throw abortedWhileWaiting(signal.reason);
    },
    observe(_endpoint, observation) {
      if (observation.status === 429) rateLimitedCount++;
    },
    state() {
      return {
        plan: 'unlimited',
        tokens: Number.POSITIVE_INFINITY,
        capacity: Number.POSITIVE_INFINITY,
        refillPerSecond: Number.POSITIVE_INFINITY,
        usedToday: 0,
        dailyLimit: null,
        dailyResetAt: 0,
        keyPausedUntil: null,
        endpointPauses: {},
        lanes: { interactive: { queued: 0 }, background: { queued: 0 } },
        waitedMs: { interactive: 0, background: 0 },
        rateLimitedCount,
      };
    },
    close() {},
  };
}
