/**
 * The theoretical minimum time to send a set of calls under a key's token bucket and
 * per-endpoint sliding windows: a greedy schedule that, at every moment, sends any call
 * whose endpoint window has room while the bucket holds a token (calls of one endpoint in
 * their order, endpoints in any order), with zero latency. No pacer can beat it; the
 * benchmarks divide measured wall time by it.
 */

export interface GreedyLimits {
  /** Bucket capacity (burst). */
  burst: number;
  /** Bucket refill, tokens per ms. */
  refillPerMs: number;
  /** Sliding window length, ms. */
  windowMs: number;
  /** Sends per window of an endpoint scope; undefined = no window. */
  windowLimit(scope: string): number | undefined;
}

/** `calls`: the window scope of each call (calls needing no window use any unique scope). */
export function greedyMinimumMs(calls: readonly string[], limits: GreedyLimits): number {
  const EPS = 1e-9;
  const pending = new Map<string, number>();
  for (const scope of calls) pending.set(scope, (pending.get(scope) ?? 0) + 1);
  const sent = new Map<string, number[]>();
  let tokens = limits.burst;
  let t = 0;
  let left = calls.length;
  let last = 0;
  const windowOf = (scope: string) => {
    const times = sent.get(scope) ?? [];
    while (times.length > 0 && times[0]! <= t - limits.windowMs) times.shift();
    sent.set(scope, times);
    return times;
  };
  while (left > 0) {
    for (const [scope, count] of pending) {
      const limit = limits.windowLimit(scope);
      const times = windowOf(scope);
      let n = count;
      while (n > 0 && tokens >= 1 - EPS && (limit === undefined || times.length < limit)) {
        tokens -= 1;
        times.push(t);
        n--;
        left--;
        last = t;
      }
      if (n === 0) pending.delete(scope);
      else pending.set(scope, n);
    }
    if (left === 0) break;
    // The next moment a call can go: a whole token, and room in some pending window.
    const tokenAt = tokens >= 1 - EPS ? t : t + (1 - tokens) / limits.refillPerMs;
    let windowAt = Number.POSITIVE_INFINITY;
    for (const scope of pending.keys()) {
      const limit = limits.windowLimit(scope);
      const times = windowOf(scope);
      windowAt = Math.min(
        windowAt,
        limit === undefined || times.length < limit ? t : times[0]! + limits.windowMs,
      );
    }
    const next = Math.max(tokenAt, windowAt, t + EPS);
    tokens = Math.min(limits.burst, tokens + (next - t) * limits.refillPerMs);
    t = next;
  }
  return last;
}
