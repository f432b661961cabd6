/**
 * The citations job's `days_back` (docs/api.md §4.8: 1–30): enough whole days to cover both
 * - the time since that brand's last successful run, so a change is never outside every
 *   feed the job reads, even after the bot was down for a while; and
 * - the service's snapshot dates: the feed is read from the snapshot after the last one
 *   the job saw. When the service was behind (its own outage) and then publishes several
 *   snapshots at once, wall-clock time since the last run would ask for too short a window.
 * The detector makes the overlap harmless.
 */
import { DAY_MS, dayNumber, epochDay, isCalendarDate } from '../utc-days.js';

const MAX_DAYS_BACK = 30;

const clamp = (days: number) => Math.min(MAX_DAYS_BACK, Math.max(1, days));

export function daysBackSince(lastSuccessMs: number, nowMs: number): number {
  return clamp(Math.ceil((nowMs - lastSuccessMs) / DAY_MS));
}

/**
 * `lastSnapshotDate`: the feed's `current_snapshot_date` at the last successful run
 * (YYYY-MM-DD), or null when none was seen; `lastSuccessMs` null = never ran (the widest
 * feed, for a baseline).
 */
export function feedDaysBackFor(
  lastSuccessMs: number | null,
  lastSnapshotDate: string | null,
  nowMs: number,
): number {
  if (lastSuccessMs === null) return MAX_DAYS_BACK;
  const sinceRun = daysBackSince(lastSuccessMs, nowMs);
  if (lastSnapshotDate === null || !isCalendarDate(lastSnapshotDate)) return sinceRun;
  return clamp(Math.max(sinceRun, epochDay(nowMs) - dayNumber(lastSnapshotDate)));
}
