/**
 * Retry-After is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). It "can
 * sometimes be blank" (octokit/plugin-throttling), and newer deployments send none at all
 * (docs/api.md §8): blank or unparseable values give undefined so the caller falls back.
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
