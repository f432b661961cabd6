/**
 * Calendar days in UTC, the dates the API reports (`YYYY-MM-DD`) and the day its daily
 * quota counts (docs/api.md §8). One place for this arithmetic; local-zone times (digests,
 * quiet hours) are in src/alerts/zoned-time.ts.
 */
export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (UTC) of an epoch-ms instant. */
export function epochDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** `YYYY-MM-DD` (UTC) of an epoch-ms instant. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (anything after the date is ignored). */
export function dayNumber(date: string): number {
  return epochDay(Date.parse(`${date.slice(0, 10)}T00:00:00Z`));
}

/** Day names made so far: a run names the same few weeks of days thousands of times. */
const dayNames = new Map<number, string>();
/** Enough for a few years of days; the names are made again after that many. */
const DAY_NAMES_KEPT = 2048;

/** `YYYY-MM-DD` of a day number. */
export function dateOfDay(day: number): string {
  let name = dayNames.get(day);
  if (name === undefined) {
    name = utcDay(day * DAY_MS);
    if (dayNames.size >= DAY_NAMES_KEPT) dayNames.clear();
    dayNames.set(day, name);
  }
  return name;
}

/** `YYYY-MM-DD` moved by `days` (negative goes back). */
export function addDays(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** The epoch ms of the next UTC midnight after `ms`. */
export function nextUtcMidnight(ms: number): number {
  return (epochDay(ms) + 1) * DAY_MS;
}

/** The `YYYY-MM-DD` day a date or an ISO time starts with; null when it names no day. */
export function calendarDayOf(text: string | null | undefined): string | null {
  const day = text?.slice(0, 10) ?? '';
  return isCalendarDate(day) ? day : null;
}

/** Whether `text` is exactly `YYYY-MM-DD` naming a day that exists (no 2025-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && utcDay(ms) === text;
}
