/**
 * Which limit a 429 (or a set of X-RateLimit-* headers) speaks of. The service says
 * "Rate limit exceeded: 60 per 1 minute" or sends X-RateLimit-Limit; a number that is the
 * endpoint's own limit and not the key's ("30 per 1 minute" on a brand write with a 60/min
 * key) concerns only that endpoint, one that is only the key's concerns the key. When the
 * words cannot tell them apart (on Scale a read endpoint's 60/min equals the key's 60/min,
 * or nothing is named at all) the answer is 'either': the limiter then asks its own
 * accounting (attribute-limit.ts) which of the two the numbers describe.
 */

export type LimitScope = 'key' | 'endpoint' | 'day';
export type ReportedScope = LimitScope | 'either';

interface ReportedRate {
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

interface ScopeLimits {
  /** The key's per-minute rate (of the plan, or as overridden). */
  keyPerMinute: number;
  /** The endpoint's (or its group's) per-minute limit; null = none enforced. */
  endpointPerMinute: number | null;
}

export function limitScope(
  reported: { message?: string | undefined; limit?: number | undefined },
  limits: ScopeLimits,
): ReportedScope {
  const rate = reportedRateFromMessage(reported.message);
  if (rate && rate.periodMs >= UNIT_MS['d']!) return 'day';
  // Without a per-endpoint window only the key's limits exist on our side.
  if (limits.endpointPerMinute === null) return 'key';
  // X-RateLimit-Limit is "maximum requests per window"; docs/api.md §8's windows are minutes.
  const perMinute = rate ? (rate.count * 60_000) / rate.periodMs : reported.limit;
  if (perMinute === undefined) return 'either';
  const isEndpoints = sameRate(perMinute, limits.endpointPerMinute);
  const isKeys = sameRate(perMinute, limits.keyPerMinute);
  if (isEndpoints && isKeys) return 'either';
  return isEndpoints ? 'endpoint' : 'key';
}

function sameRate(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-6;
}
