/**
 * Day arithmetic the simulator needs beyond src/utc-days.ts. Snapshots, crawler visits and
 * the daily request count all live on UTC epoch days, so the simulator never depends on the
 * host time zone.
 */
import { DAY_MS, dayNumber, isCalendarDate } from '../../utc-days.js';

/** ISO timestamp of a moment inside an epoch day. */
export function dayTimestamp(day: number, msIntoDay = 0): string {
  return new Date(day * DAY_MS + msIntoDay).toISOString();
}

/** Epoch day of a strict `YYYY-MM-DD` string, or null when it is not a real date. */
export function parseDay(text: string): number | null {
  return isCalendarDate(text) ? dayNumber(text) : null;
}

/** First instant (epoch ms) of the month after the one containing `ms`. */
export function startOfNextMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
