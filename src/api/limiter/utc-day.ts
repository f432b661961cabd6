/** The daily count is per UTC day (API.md §8 "Daily limit"); these name it and its end. */

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}
