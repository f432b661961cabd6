/**
 * Day arithmetic on UTC epoch days. Snapshots, crawler visits and the daily request count
 * all live on UTC days, so the simulator never depends on the host time zone.
 */
export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (UTC) of an epoch-ms instant. */
export function epochDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** `YYYY-MM-DD` of an epoch day. */
export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** ISO timestamp of a moment inside an epoch day. */
export function dayTimestamp(day: number, msIntoDay = 0): string {
  return new Date(day * DAY_MS + msIntoDay).toISOString();
}

/** Epoch day of a strict `YYYY-MM-DD` string, or null when it is not a real date. */
export function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) return null;
  return epochDay(ms);
}

/** First instant (epoch ms) of the month after the one containing `ms`. */
export function startOfNextMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
