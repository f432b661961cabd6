/**
 * "No more than `limit` sends in any `windowMs`", pure. A sequence that obeys it obeys any
 * fixed or sliding window of the same length the server may count in, so it is the safe
 * reading of docs/api.md §8's per-endpoint "Limit/min". Timestamps may lie in the future
 * (placeholders that make a paused endpoint drain at its rate afterwards).
 */

/**
 * ms from `nowMs` until a send leaves at least `free` slots free, given the ascending
 * timestamps of the scope's recent sends (0 = now).
 */
export function msUntilWindowSlot(
  sentAtMs: readonly number[],
  limit: number,
  windowMs: number,
  nowMs: number,
  free = 1,
): number {
  if (free > limit) return Number.POSITIVE_INFINITY;
  const live = sentAtMs.filter((t) => t > nowMs - windowMs);
  // A send needs `free` slots: the oldest (live.length - limit + free) sends must expire.
  const mustExpire = live.length - limit + free;
  if (mustExpire <= 0) return 0;
  return live[mustExpire - 1]! + windowMs - nowMs;
}

/**
 * The window's sends after a pause until `untilMs` that must end in a drain at the window's
 * rate: the latest `limit` sends, each moved no earlier than the matching one of `limit`
 * placeholders spaced `windowMs / limit` apart and expiring from `untilMs` on. Slot k then
 * frees no earlier than either the real send or the drain allows (not their sum), and
 * pausing again with the same or an earlier end changes nothing.
 */
export function drainAfterPause(
  sentAtMs: readonly number[],
  limit: number,
  windowMs: number,
  untilMs: number,
): number[] {
  const latest = [...sentAtMs].sort((a, b) => a - b).slice(-limit);
  const padded = [...Array<number>(limit - latest.length).fill(Number.NEGATIVE_INFINITY), ...latest];
  return padded.map((t, i) => Math.max(t, Math.ceil(untilMs - windowMs + (i * windowMs) / limit)));
}
