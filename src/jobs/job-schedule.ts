/**
 * When the scheduler runs each job. Polls run once per slot of the planned interval; slots
 * are aligned to UTC midnight (every interval divides a day, ../use-cases/plan-polling.ts), so a 6 h
 * job runs at the same hours every day, and each job is offset by a few minutes so they
 * do not all call the API at once. A job is due when no run (by `serve` or `run-job`)
 * started in the current slot: after a restart, a missed slot runs at once, and a run
 * that failed waits for the next slot instead of retrying every minute.
 */

import { addDays, zonedParts, zonedTimeToUtcMs } from '../alerts/zoned-time.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import type { PollJob } from '../use-cases/job-names.js';
import { AI_PAGES_RUN_HOURS, type PollingPlan } from '../use-cases/plan-polling.js';

const HOUR_MS = 3_600_000;

export function intervalHoursOf(plan: Pick<PollingPlan, 'intervals'>, job: PollJob): number {
  switch (job) {
    case 'citations':
      return plan.intervals.citationsHours;
    case 'crawler':
      return plan.intervals.crawlerHours;
    case 'ai-pages':
      // The job runs often; each brand is asked daily, and at the runs around a forecast crossing.
      return Math.min(AI_PAGES_RUN_HOURS, plan.intervals.aiPagesHours);
  }
}

/** Start of the slot `nowMs` falls in. */
export function slotStart(nowMs: number, intervalHours: number, offsetMs: number): number {
  const interval = intervalHours * HOUR_MS;
  return Math.floor((nowMs - offsetMs) / interval) * interval + offsetMs;
}

export function isPollDue(
  lastStartedMs: number | null,
  nowMs: number,
  intervalHours: number,
  offsetMs: number,
): boolean {
  return lastStartedMs === null || lastStartedMs < slotStart(nowMs, intervalHours, offsetMs);
}

/** When the job runs next: now when due, else the next slot. */
export function nextPollAt(
  lastStartedMs: number | null,
  nowMs: number,
  intervalHours: number,
  offsetMs: number,
): number {
  if (isPollDue(lastStartedMs, nowMs, intervalHours, offsetMs)) return nowMs;
  return slotStart(nowMs, intervalHours, offsetMs) + intervalHours * HOUR_MS;
}

/** The next scheduled digest among `subs` (their time, their zone), for status. */
export function nextDigestAt(
  subs: readonly Subscription[],
  nowMs: number,
  defaultTimezone: string,
): number | null {
  let next: number | null = null;
  for (const s of subs) {
    const tz = s.settings.timezone ?? defaultTimezone;
    const today = zonedParts(nowMs, tz).date;
    let at = zonedTimeToUtcMs(today, s.settings.digestTime, tz);
    if (at <= nowMs || s.lastDigestDate === today)
      at = zonedTimeToUtcMs(addDays(today, 1), s.settings.digestTime, tz);
    if (next === null || at < next) next = at;
  }
  return next;
}
