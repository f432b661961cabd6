/**
 * Exponential backoff, one formula for the API client and the outbox relay: base, 2×base,
 * 4×base … capped at max.
 *
 * - `jitter: 'full'` (the AWS "Exponential Backoff and Jitter" variant) draws uniformly from
 *   [0, ceiling): docs/api.md §7 asks clients to "use exponential backoff with jitter", because
 *   many callers retrying the same service at once would otherwise come back together.
 * - `jitter: 'none'` waits the ceiling itself: an outbox row belongs to one relay at a time,
 *   so there is no herd to spread, and tests can predict the schedule.
 */
interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  jitter?: 'none' | 'full' | undefined;
  /** [0, 1) like Math.random; injectable so tests can pin the draw. */
  random?: (() => number) | undefined;
}

/** The wait before retry number `retry`, counting from 0 (the first retry waits up to base). */
export function backoffDelay(retry: number, options: BackoffOptions): number {
  const n = Math.max(0, Math.floor(retry));
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.min(n, 30));
  if (options.jitter !== 'full') return ceiling;
  const random = options.random ?? Math.random;
  return Math.max(0, Math.floor(random() * ceiling));
}
