/**
 * Wall-clock time in an IANA zone with nothing but Intl (no tz database dependency).
 * Used for digest times and quiet hours, which people set in their own local time.
 */
import { localTimeAsUtcMs } from '../local-time-parts.js';

interface ZonedParts {
  /** YYYY-MM-DD */
  date: string;
  /** Minutes since local midnight, 0–1439. */
  minutes: number;
}

export function zonedParts(ms: number, timeZone: string): ZonedParts {
  const wall = localTimeAsUtcMs(ms, timeZone);
  const iso = new Date(wall).toISOString();
  return { date: iso.slice(0, 10), minutes: Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16)) };
}

export function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

export { addDays } from '../utc-days.js';

/**
 * The instant a local wall-clock time happens. In a DST gap (02:30 on a spring-forward
 * night) this lands just after the gap, which is what a reminder at that time should do.
 */
export function zonedTimeToUtcMs(date: string, hhmm: string, timeZone: string): number {
  const target = Date.parse(`${date}T${hhmm}:00Z`);
  let guess = target;
  // Two rounds settle the offset on both sides of a DST change.
  for (let i = 0; i < 2; i++) guess = target - (localTimeAsUtcMs(guess, timeZone) - guess);
  return guess;
}
