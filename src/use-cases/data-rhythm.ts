/**
 * When the service's data changes, learned from the data itself, so each poll runs just
 * after new data is expected. Citation data comes from the service's daily research run:
 * every feed event carries the run's timestamp, so the time of day of the latest event is
 * when that brand's run happened. The citations poll is placed a little after the usual
 * (median) run time of the brands watched. Pure.
 */
import { timestampParser } from '../timestamp-parser.js';
import { DAY_MS } from '../utc-days.js';

/** How long after the usual run time the citations poll goes (runs vary by minutes). */
export const POLL_AFTER_RUN_MS = 30 * 60_000;

/**
 * Milliseconds into its UTC day of the latest of `events`' timestamps; null when none
 * parse. A feed repeats one timestamp per snapshot hundreds of times: each distinct one is
 * parsed once (timestamp-parser.ts). An indexed loop over the events themselves: a
 * generator of their timestamps cost a tenth of a second over the alerts bench's 500,000
 * events.
 */
export function runTimeOfDayMs(events: readonly { readonly timestamp: string }[]): number | null {
  const parse = timestampParser();
  let latest = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < events.length; i++) {
    const ms = parse(events[i]!.timestamp);
    if (ms > latest) latest = ms;
  }
  return Number.isFinite(latest) ? ((latest % DAY_MS) + DAY_MS) % DAY_MS : null;
}

/**
 * The citations poll's offset into the UTC day: POLL_AFTER_RUN_MS after the median of the
 * brands' run times, or null when no run time has been seen yet.
 */
export function citationsPollOffsetMs(runTimes: readonly number[]): number | null {
  if (runTimes.length === 0) return null;
  const sorted = [...runTimes].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return (median + POLL_AFTER_RUN_MS) % DAY_MS;
}
