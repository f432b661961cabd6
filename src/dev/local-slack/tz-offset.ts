import { wallClockAsUtcMs } from '../../wall-clock.js';

/** Offset of an IANA zone from UTC at an instant, in seconds (Slack's `users.info` `tz_offset`). */
export function tzOffsetSeconds(timeZone: string, atMs: number): number {
  return Math.round((wallClockAsUtcMs(atMs, timeZone) - Math.floor(atMs / 1000) * 1000) / 1000);
}
