/**
 * Exponential backoff for an outbox row that failed for a reason worth retrying:
 * base, 2×base, 4×base … capped. No jitter: each row belongs to one relay at a time, so
 * there is no herd to spread, and tests can predict the schedule.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  const n = Math.max(1, Math.floor(attempt));
  return Math.min(maxMs, baseMs * 2 ** Math.min(n - 1, 30));
}
