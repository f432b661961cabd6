/**
 * Reads docs/api.md §8's rate-limit headers into the limiter's terms. docs/api.md §8: newer
 * deployments may send none of them, so every field is optional and garbage is ignored.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parseRetryAfter } from './parse-retry-after.js';

interface RateLimitHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  resetAtMs: number | undefined;
  retryAfterMs: number | undefined;
}

export function parseRateLimitHeaders(headers: IncomingHttpHeaders, nowMs: number): RateLimitHeaders {
  return {
    limit: nonNegative(header(headers, 'x-ratelimit-limit')),
    remaining: nonNegative(header(headers, 'x-ratelimit-remaining')),
    resetAtMs: resetToEpochMs(nonNegative(header(headers, 'x-ratelimit-reset')), nowMs),
    retryAfterMs: parseRetryAfter(header(headers, 'retry-after'), nowMs),
  };
}

/**
 * docs/api.md §8: X-RateLimit-Reset is "Unix timestamp when the window resets" (seconds). Some
 * gateways send seconds-until-reset instead (the IETF RateLimit-Reset draft) or epoch ms;
 * a value below 10^9 cannot be a Unix time after 2001, and one above 10^12 is already ms.
 */
function resetToEpochMs(value: number | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  if (value < 1e9) return nowMs + value * 1000;
  if (value > 1e12) return value;
  return value * 1000;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function nonNegative(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}
