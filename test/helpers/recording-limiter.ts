/**
 * A RateLimiter that never waits: it records every acquire and observe so tests can check
 * that the client asked before each attempt and reported every response.
 */
import type { EndpointKey } from '../../src/api/endpoint-table.js';
import type { Lane, LimiterState, RateLimiter, RateLimitObservation } from '../../src/api/limiter/types.js';

export interface RecordingLimiter extends RateLimiter {
  acquired: Array<{ endpoint: EndpointKey; lane: Lane }>;
  observed: Array<{ endpoint: EndpointKey; observation: RateLimitObservation }>;
}

export function recordingLimiter(): RecordingLimiter {
  const acquired: RecordingLimiter['acquired'] = [];
  const observed: RecordingLimiter['observed'] = [];
  const state: LimiterState = {
    plan: 'test',
    tokens: 30,
    capacity: 30,
    refillPerSecond: 20 / 60,
    usedToday: 0,
    dailyLimit: 1000,
    dailyResetAt: 0,
    keyPausedUntil: null,
    endpointPauses: {},
    lanes: { interactive: { queued: 0 }, background: { queued: 0 } },
    waitedMs: { interactive: 0, background: 0 },
    rateLimitedCount: 0,
  };
  return {
    acquired,
    observed,
    async acquire(endpoint, lane, signal) {
      signal?.throwIfAborted();
      acquired.push({ endpoint, lane });
    },
    observe(endpoint, observation) {
      observed.push({ endpoint, observation });
    },
    state: () => ({ ...state, usedToday: acquired.length }),
    close() {},
  };
}
