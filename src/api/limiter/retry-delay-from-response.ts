/**
 * How long the limiter pauses after a 429. docs/api.md §8: newer deployments may send no
 * Retry-After; then read the delay from the error message ("retry in 30 seconds"), and a
 * message that names only the limit ("60 per 1 minute") is a rate, not a delay.
 */
import { retryDelayFromMessage } from '../retry-delay-from-message.js';

export function retryDelayFromResponse(
  o: { retryAfterMs?: number | undefined; message?: string | undefined },
  defaultMs: number,
): number {
  if (o.retryAfterMs !== undefined && Number.isFinite(o.retryAfterMs) && o.retryAfterMs >= 0) {
    return o.retryAfterMs;
  }
  return retryDelayFromMessage(o.message) ?? defaultMs;
}
