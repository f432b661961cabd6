/**
 * How long to wait before trying again. Backoff is exponential with full jitter (the
 * AWS "Exponential Backoff and Jitter" variant); API.md §7 asks clients to "use
 * exponential backoff with jitter" and to honour Retry-After on 429.
 */

export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Full jitter: a uniform draw from [0, min(max, base·2^attempt)). `attempt` counts from 0. */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.max(0, Math.floor(random() * ceiling));
}

/**
 * Retry-After is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). It "can
 * sometimes be blank" (octokit/plugin-throttling), and newer deployments send none at all
 * (DESIGN.md): blank or unparseable values give undefined so the caller falls back.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only something that looks like a date: Date.parse accepts far too much ("1 2").
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The delay a 429 message names, e.g. "Rate limit exceeded, retry in 30 seconds" or
 * "try again after 2 minutes". DESIGN.md: a message naming only the limit ("60 per 1
 * minute") states a rate, not a delay, and yields undefined.
 */
export function retryDelayFromMessage(message: string | undefined): number | undefined {
  if (!message) return undefined;
  const match =
    /\b(?:retry|try again|wait|available)\b[^0-9]{0,20}?(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|h)\b/i.exec(
      message,
    );
  if (!match) return undefined;
  const unit = match[2]!.toLowerCase();
  const key = unit.startsWith('ms') || unit.startsWith('milli') ? 'ms' : unit[0]!;
  return Math.round(Number(match[1]) * (UNIT_MS[key] ?? 1000));
}
