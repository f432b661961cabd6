/**
 * Whether the Brand Visibility API answered lately, from the outcome of the last real
 * call (no probe of our own: that would spend the key's rate budget). /healthz reports it
 * but stays green either way: a vendor outage must not get the bot restarted (docs/runtime-contract.md).
 */
import type { ResponseEvent } from './api/transport.js';
import type { Clock } from './clock.js';

export interface ApiHealthSnapshot {
  /** null until the first call */
  reachable: boolean | null;
  /** ISO time of the last call's outcome, or null */
  checkedAt: string | null;
  lastStatus: number | string | null;
}

export interface ApiHealth {
  observe(e: Pick<ResponseEvent, 'status'>): void;
  snapshot(): ApiHealthSnapshot;
}

export function createApiHealth(clock: Clock): ApiHealth {
  let last: ApiHealthSnapshot = { reachable: null, checkedAt: null, lastStatus: null };
  return {
    observe({ status }) {
      // Any HTTP answer below 500 means the service is there (a 401 is our key's problem).
      const reachable = typeof status === 'number' && status < 500;
      last = { reachable, checkedAt: new Date(clock.now()).toISOString(), lastStatus: status };
    },
    snapshot: () => last,
  };
}
