/**
 * The citations job's `days_back` (API.md §4.8: 1–30): enough whole days to cover the time
 * since that brand's last successful run, so a change is never outside every feed the job
 * reads, even after the bot was down for a while. The detector makes the overlap harmless.
 */
import { DAY_MS } from '../utc-days.js';

export const MAX_DAYS_BACK = 30;

export function daysBackSince(lastSuccessMs: number, nowMs: number): number {
  const days = Math.ceil((nowMs - lastSuccessMs) / DAY_MS);
  return Math.min(MAX_DAYS_BACK, Math.max(1, days));
}
