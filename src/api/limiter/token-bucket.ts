/**
 * Token bucket arithmetic, pure. docs/api.md §8 reads "burst" as the bucket's capacity, refilled
 * at the per-minute rate. A level's `atMs` may lie in the future: after a 429 the bucket
 * restarts empty at the end of the pause, so nothing refills before then.
 */

export interface BucketParams {
  capacity: number;
  refillPerMs: number;
}

export interface BucketLevel {
  tokens: number;
  atMs: number;
}

/** Floating-point slack: a bucket refilled for exactly the computed wait must count as full enough. */
const EPSILON = 1e-9;

export function refill(level: BucketLevel, params: BucketParams, nowMs: number): BucketLevel {
  if (nowMs <= level.atMs) return level;
  const tokens = Math.min(params.capacity, level.tokens + (nowMs - level.atMs) * params.refillPerMs);
  return { tokens, atMs: nowMs };
}

/** ms from `nowMs` until the bucket holds at least `needed` tokens (0 = now). */
export function msUntilTokens(
  level: BucketLevel,
  params: BucketParams,
  nowMs: number,
  needed: number,
): number {
  if (needed > params.capacity + EPSILON) return Number.POSITIVE_INFINITY;
  const current = refill(level, params, nowMs);
  const missing = needed - current.tokens;
  const startsIn = Math.max(0, current.atMs - nowMs);
  if (missing <= EPSILON) return startsIn;
  if (params.refillPerMs <= 0) return Number.POSITIVE_INFINITY;
  return startsIn + missing / params.refillPerMs;
}

/** Takes one token at `nowMs`, or returns null when fewer than `needed` are there. */
export function take(
  level: BucketLevel,
  params: BucketParams,
  nowMs: number,
  needed = 1,
): BucketLevel | null {
  if (msUntilTokens(level, params, nowMs, needed) > 0) return null;
  const current = refill(level, params, nowMs);
  return { tokens: Math.max(0, current.tokens - 1), atMs: current.atMs };
}
