/**
 * Slack redelivers a request it thinks timed out: over HTTP with `X-Slack-Retry-Num`, in
 * Socket Mode with the envelope's `retry_attempt`. A redelivery of a request the bot
 * already accepted is acknowledged and dropped, so a retried write is never applied
 * twice. Accepted requests are remembered in the database (handled-requests-repo.ts), so
 * a redelivery that arrives after a restart is still recognised.
 */
import type { HandledRequestsRepo } from '../store/handled-requests-repo.js';

/** Slack retries up to 3 times within minutes; an hour leaves a wide margin. */
export const REMEMBER_REQUESTS_MS = 60 * 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface RedeliveryFilter {
  /**
   * Records the request as accepted; true when it is a redelivery (`retryNum` set) of a
   * request already accepted, which the caller acknowledges and drops.
   */
  isRedelivery(requestKey: string, retryNum: number | undefined, nowMs: number): Promise<boolean>;
}

export function createRedeliveryFilter(handled: HandledRequestsRepo): RedeliveryFilter {
  let lastPurgeMs = 0;
  return {
    async isRedelivery(requestKey, retryNum, nowMs) {
      const seen = await handled.remember(requestKey, nowMs, REMEMBER_REQUESTS_MS);
      if (nowMs - lastPurgeMs >= PURGE_EVERY_MS) {
        lastPurgeMs = nowMs;
        await handled.purgeBefore(nowMs - REMEMBER_REQUESTS_MS);
      }
      return seen && retryNum !== undefined;
    },
  };
}
