/**
 * Rate limits as the real service enforces them (docs/api.md §8): a token bucket
 * per key (capacity = burst, refilled at perMinute per window), a sliding window per
 * endpoint (endpoints of a group such as brand writes share one), and a count per UTC day.
 * A rejected request consumes nothing.
 */
import { DAY_MS } from '../../utc-days.js';
import type { SimulatorLimits } from './types.js';

export interface RateDecisionHeaders {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
}

export type RateDecision =
  | { ok: true; headers: RateDecisionHeaders }
  | { ok: false; headers: RateDecisionHeaders; retryAfterSec: number; message: string };

export interface RateLimitState {
  tokens: number;
  usedToday: number;
  windows: Record<string, number>;
}

export interface ServiceRateLimits {
  /** Decides on one request to the endpoint window `key` limited to `limit` per window. */
  take(key: string, limit: number, now: number): RateDecision;
  /** Headers describing the current state without taking anything (fault responses). */
  peek(key: string, limit: number, now: number): RateDecisionHeaders;
  limits(): SimulatorLimits;
  /** New limits; all counters start afresh. */
  setLimits(limits: SimulatorLimits, now: number): void;
  state(now: number): RateLimitState;
}

// Long by design: the simulated service's limit counters with one short method per check; each reads alone.
export function createServiceRateLimits(initial: SimulatorLimits, startedAt: number): ServiceRateLimits {
  let limits = initial;
  let tokens = limits.burst;
  let refilledAt = startedAt;
  let day = Math.floor(startedAt / DAY_MS);
  let usedToday = 0;
  const windows = new Map<string, number[]>();

  const refill = (now: number) => {
    const elapsed = Math.max(0, now - refilledAt);
    tokens = Math.min(limits.burst, tokens + (elapsed * limits.perMinute) / limits.windowMs);
    refilledAt = now;
    const today = Math.floor(now / DAY_MS);
    if (today !== day) {
      day = today;
      usedToday = 0;
    }
  };

  const windowOf = (key: string, now: number) => {
    const list = (windows.get(key) ?? []).filter((t) => t > now - limits.windowMs);
    // Empty windows are dropped, so peeking at arbitrary paths stores nothing.
    if (list.length > 0) windows.set(key, list);
    else windows.delete(key);
    return list;
  };

  const headers = (limit: number, remaining: number, resetMs: number): RateDecisionHeaders => ({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, Math.floor(remaining))),
    // Unix seconds (docs/api.md §8).
    'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
  });

  /**
   * Remaining is the tightest of the three limits, and Reset belongs to that same limit:
   * when its count next goes up (the key's next whole token, the window's oldest request
   * leaving it, UTC midnight). A Reset taken from another limit would tell a client that
   * reads "Remaining 0 until Reset" (docs/api.md §7 says to watch Remaining) to wait for the
   * wrong thing, e.g. a minute-long window while the bucket refills in a second. When
   * limits tie, the latest Reset: the count stays down until all of them went up.
   */
  const describe = (key: string, limit: number, now: number) => {
    const list = windowOf(key, now);
    const msPerToken = limits.windowMs / limits.perMinute;
    const whole = Math.floor(tokens);
    const candidates = [
      {
        remaining: whole,
        resetMs: tokens >= limits.burst ? now : now + (whole + 1 - tokens) * msPerToken,
      },
      {
        remaining: limit - list.length,
        resetMs: list.length > 0 ? list[0]! + limits.windowMs : now + limits.windowMs,
      },
      ...(limits.perDay === null
        ? []
        : [{ remaining: limits.perDay - usedToday, resetMs: (day + 1) * DAY_MS }]),
    ];
    const remaining = Math.min(...candidates.map((c) => c.remaining));
    const resetMs = Math.max(...candidates.filter((c) => c.remaining === remaining).map((c) => c.resetMs));
    return { list, remaining, resetMs };
  };

  // Retry-After is in whole seconds and never 0, or a client would retry at once.
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  return {
    take(key, limit, now) {
      refill(now);
      const { list } = describe(key, limit, now);
      const reject = (retryMs: number, message: string, reset: number): RateDecision => ({
        ok: false,
        headers: headers(limit, 0, reset),
        retryAfterSec: seconds(retryMs),
        message,
      });
      if (limits.perDay !== null && usedToday >= limits.perDay) {
        const midnight = (day + 1) * DAY_MS;
        return reject(midnight - now, `Rate limit exceeded: ${limits.perDay} per 1 day`, midnight);
      }
      if (tokens < 1) {
        const waitMs = ((1 - tokens) * limits.windowMs) / limits.perMinute;
        return reject(waitMs, `Rate limit exceeded: ${limits.perMinute} per 1 minute`, now + waitMs);
      }
      if (list.length >= limit) {
        const windowReset = list[0]! + limits.windowMs;
        return reject(windowReset - now, `Rate limit exceeded: ${limit} per 1 minute`, windowReset);
      }
      tokens -= 1;
      usedToday += 1;
      list.push(now);
      windows.set(key, list);
      const after = describe(key, limit, now);
      return { ok: true, headers: headers(limit, after.remaining, after.resetMs) };
    },
    peek(key, limit, now) {
      refill(now);
      const { remaining, resetMs } = describe(key, limit, now);
      return headers(limit, remaining, resetMs);
    },
    limits: () => limits,
    setLimits(next, now) {
      limits = next;
      tokens = next.burst;
      refilledAt = now;
      usedToday = 0;
      windows.clear();
    },
    state(now) {
      refill(now);
      const counts: Record<string, number> = {};
      for (const key of windows.keys()) counts[key] = windowOf(key, now).length;
      return { tokens: Math.floor(tokens * 1000) / 1000, usedToday, windows: counts };
    },
  };
}
