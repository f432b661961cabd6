/**
 * Which weekly summary is due now: the latest time its day and time (in the subscription's
 * zone) came round. It covers the 7 whole local days before that day. A summary missed
 * while the bot was down is sent once when it is back, marked late; after several missed
 * weeks only the latest is sent. The subscription's weekly state (the last week written,
 * and the schedule it was written for) makes "once" hold across restarts and replicas.
 *
 * A schedule the bot has not sent under yet (weekly just turned on, or moved to another day
 * or time) is only sent on time: a week that passed before anyone asked for it is not
 * "missed", so turning it on on a Wednesday does not post last Monday's at once.
 */
import type { AlertSettings, WeekDay } from './alert-settings.js';
import { weekDays } from './alert-settings.js';
import { DIGEST_GRACE_MS } from './digest-due.js';
import { addDays, minutesOf, zonedParts, zonedTimeToUtcMs } from './zoned-time.js';

export interface WeeklySchedule {
  day: WeekDay;
  /** HH:MM, local. */
  time: string;
  timeZone: string;
}

/** What the store keeps per subscription (channel × brand). */
export interface WeeklyState {
  /** Local date of the last summary written (its scheduled day); null: none yet. */
  lastDate: string | null;
  /** `weeklyScheduleKey` of the schedule it was written under. */
  schedule: string | null;
}

export interface WeeklyDue {
  /** Local date the summary is for: the day it is scheduled on. */
  date: string;
  /** First and last local day covered: the 7 whole days before `date`. */
  start: string;
  end: string;
  scheduledAtMs: number;
  late: boolean;
}

/** The outbox keys of weekly summaries and their charts say so (the relay tells them from digests). */
export const WEEKLY_KEY_PART = 'weekly:';

export function weeklyKey(brandId: string, date: string): string {
  return `${WEEKLY_KEY_PART}${brandId}:${date}`;
}

/** Whether an outbox dedupe key (`<channel>:weekly:…`, `<channel>:chart:weekly:…`) is a weekly summary's. */
export function isWeeklyDedupeKey(dedupeKey: string): boolean {
  const rest = dedupeKey.slice(dedupeKey.indexOf(':') + 1);
  return rest.startsWith(WEEKLY_KEY_PART) || rest.startsWith(`chart:${WEEKLY_KEY_PART}`);
}

export function weeklySchedule(settings: AlertSettings, defaultTimezone: string): WeeklySchedule {
  return {
    day: settings.weeklyDay,
    time: settings.weeklyTime ?? settings.digestTime,
    timeZone: settings.timezone ?? defaultTimezone,
  };
}

export const weeklyScheduleKey = (s: WeeklySchedule): string => `${s.day}@${s.time}@${s.timeZone}`;

/** 0 = Monday … 6 = Sunday, of a `YYYY-MM-DD` date. */
function weekdayIndex(date: string): number {
  return (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7;
}

/** The week a summary posted on `date` covers. */
function weekOf(date: string): { start: string; end: string } {
  return { start: addDays(date, -7), end: addDays(date, -1) };
}

/** The latest local date on or before `nowMs` whose scheduled time has passed. */
export function latestWeeklyDate(nowMs: number, s: WeeklySchedule): string {
  const { date, minutes } = zonedParts(nowMs, s.timeZone);
  const want = weekDays.indexOf(s.day);
  const back = (weekdayIndex(date) - want + 7) % 7;
  const candidate = addDays(date, -back);
  return back === 0 && minutes < minutesOf(s.time) ? addDays(candidate, -7) : candidate;
}

export function weeklyDue(
  nowMs: number,
  s: WeeklySchedule,
  state: WeeklyState | null,
  /** The subscription's creation time: a summary scheduled before it is never due. */
  notBeforeMs = 0,
): WeeklyDue | null {
  const date = latestWeeklyDate(nowMs, s);
  if (state?.lastDate != null && state.lastDate >= date) return null;
  const scheduledAtMs = zonedTimeToUtcMs(date, s.time, s.timeZone);
  if (scheduledAtMs < notBeforeMs) return null;
  const late = nowMs - scheduledAtMs > DIGEST_GRACE_MS;
  if (late && state?.schedule !== weeklyScheduleKey(s)) return null;
  return { date, ...weekOf(date), scheduledAtMs, late };
}

/** `run-job weekly`: the 7 whole days before today, posted now. */
export function weeklyNow(nowMs: number, timeZone: string): WeeklyDue {
  const date = zonedParts(nowMs, timeZone).date;
  return { date, ...weekOf(date), scheduledAtMs: nowMs, late: false };
}

/** The first instant of a local date and of the day after another: the week as a time window. */
export function weekWindowMs(week: Pick<WeeklyDue, 'start' | 'end'>, timeZone: string) {
  return {
    fromMs: zonedTimeToUtcMs(week.start, '00:00', timeZone),
    toMs: zonedTimeToUtcMs(addDays(week.end, 1), '00:00', timeZone),
  };
}

/** The next time a summary is scheduled after `nowMs` (for status). */
export function nextWeeklyAt(nowMs: number, s: WeeklySchedule): number {
  return zonedTimeToUtcMs(addDays(latestWeeklyDate(nowMs, s), 7), s.time, s.timeZone);
}

/** "Monday" for a local date. */
export function weekdayName(date: string): string {
  const d = weekDays[weekdayIndex(date)]!;
  return d.charAt(0).toUpperCase() + d.slice(1);
}
