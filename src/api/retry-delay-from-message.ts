const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * The delay a 429 message names, e.g. "Rate limit exceeded, retry in 30 seconds" or
 * "try again after 2 minutes". docs/api.md §8: a message naming only the limit ("60 per 1
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
