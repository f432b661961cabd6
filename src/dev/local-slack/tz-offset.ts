import { localTimeAsUtcMs } from '../../local-time-parts.js';

/** Offset of an IANA zone from UTC at an instant, in seconds (Slack's `users.info` `tz_offset`). */
export function tzOffsetSeconds(timeZone: string, atMs: number): number {
  return Math.round((localTimeAsUtcMs(atMs, timeZone) - Math.floor(atMs / 1000) * 1000) / 1000);
}
