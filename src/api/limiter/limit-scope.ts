/**
 * Which limit a 429 (or a set of X-RateLimit-* headers) speaks of. The service says
 * "Rate limit exceeded: 60 per 1 minute" or sends X-RateLimit-Limit; a number that is the
 * endpoint's own limit and not the key's ("30 per 1 minute" on a brand write with a 60/min
 * key) concerns only that endpoint. Anything that is the key's, or cannot be told apart,
 * concerns the whole key: pausing too much costs a little time, too little costs more 429s.
 */

export type LimitScope = 'key' | 'endpoint' | 'day';

export interface ReportedRate {
  count: number;
  periodMs: number;
}

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** "60 per 1 minute", "10 requests per minute", "1000/day" → a count per period. */
export function reportedRateFromMessage(message: string | undefined): ReportedRate | undefined {
  if (!message) return undefined;
  const match =
    /(\d+(?:\.\d+)?)\s*(?:requests?|calls?)?\s*(?:per|\/)\s*(\d+(?:\.\d+)?)?\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/i.exec(
      message,
    );
  if (!match) return undefined;
  const unit = UNIT_MS[match[3]!.toLowerCase()[0]!]!;
  return { count: Number(match[1]), periodMs: Number(match[2] ?? 1) * unit };
}

export interface ScopeLimits {
  /** The key's per-minute rate (of the plan, or as overridden). */
  keyPerMinute: number;
  /** The endpoint's (or its group's) per-minute limit; null = none enforced. */
  endpointPerMinute: number | null;
}

export function limitScope(
  reported: { message?: string | undefined; limit?: number | undefined },
  limits: ScopeLimits,
): LimitScope {
  const rate = reportedRateFromMessage(reported.message);
  if (rate && rate.periodMs >= UNIT_MS['d']!) return 'day';
  // X-RateLimit-Limit is "maximum requests per window"; API.md §8's windows are minutes.
  const perMinute = rate ? (rate.count * 60_000) / rate.periodMs : reported.limit;
  if (perMinute === undefined) return 'key';
  const isEndpoints = limits.endpointPerMinute !== null && sameRate(perMinute, limits.endpointPerMinute);
  return isEndpoints && !sameRate(perMinute, limits.keyPerMinute) ? 'endpoint' : 'key';
}

function sameRate(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-6;
}
