/**
 * Quiet hours hold alerts until they end (docs/alert-semantics.md: held alerts are delivered when a mute
 * or quiet hours end, not dropped). The window is local to the subscription's time zone
 * and may wrap midnight (22:00-07:00).
 */
import type { QuietHours } from './alert-settings.js';
import { addDays, minutesOf, zonedParts, zonedTimeToUtcMs } from './zoned-time.js';

/** When the quiet hours around `nowMs` end (epoch ms), or null when it is not quiet now. */
export function quietHoursEndMs(nowMs: number, quiet: QuietHours | null, timeZone: string): number | null {
  if (!quiet) return null;
  const { date, minutes } = zonedParts(nowMs, timeZone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const wraps = start > end;
  const inside = wraps ? minutes >= start || minutes < end : minutes >= start && minutes < end;
  if (!inside) return null;
  const endDate = wraps && minutes >= start ? addDays(date, 1) : date;
  return zonedTimeToUtcMs(endDate, quiet.end, timeZone);
}
