/**
 * The one readable date style: "Nov 27, 2026" for a day and "Nov 27, 2026 at 8:33 PM UTC"
 * for a moment, the words Slack itself writes for its `{date_short}` token. In Slack text
 * every date goes through that token (src/messages/mrkdwn.ts: `slackDate`, `slackDay`),
 * which shows it in the reader's zone; these strings are its fallback and what the places
 * a token cannot reach show: header blocks (plain text), chart pictures, alt text, the
 * notification text. So a reader meets one style wherever a date appears.
 *
 * Periods are said with their real end ("7 days to Nov 27, 2026"), and a period whose data
 * ends well before today says so, so a chart titled "7 days" never hides a week-old end.
 */
import { calendarDayOf, dayNumber, epochDay } from '../utc-days.js';

// Made on first use, not at import: the first time-zone-aware formatter loads ICU's
// time-zone data, which a process that writes no date (run-job with nothing due) skips.
let formats:
  | { day: Intl.DateTimeFormat; shortDay: Intl.DateTimeFormat; clock: Intl.DateTimeFormat }
  | undefined;
function dateFormats() {
  formats ??= {
    day: new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }),
    shortDay: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    clock: new Intl.DateTimeFormat('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZone: 'UTC',
    }),
  };
  return formats;
}

/** Midday UTC of a `YYYY-MM-DD` day, or NaN: the instant a day's date token is written for. */
export function middayOf(date: string): number {
  const day = calendarDayOf(date);
  return day === null ? Number.NaN : Date.parse(`${day}T12:00:00Z`);
}

/** "Nov 27, 2026" for a `YYYY-MM-DD` day (or an ISO time: its UTC day); the text itself when not a date. */
export function dayText(date: string): string {
  const ms = middayOf(date);
  return Number.isNaN(ms) ? date : dateFormats().day.format(ms);
}

/** "Nov 27": a day on a chart's axis or in a series' description, where the year is in the title. */
export function shortDayText(date: string): string {
  const ms = middayOf(date);
  return Number.isNaN(ms) ? date : dateFormats().shortDay.format(ms);
}

/**
 * A run of days in the same style: "Nov 16–22, 2026", "Nov 30 – Dec 6, 2026", "Dec 28, 2026 –
 * Jan 3, 2027"; the day alone when both are one day.
 */
export function dayRangeText(start: string, end: string): string {
  if (start === end) return dayText(start);
  const [a, b] = [middayOf(start), middayOf(end)];
  if (Number.isNaN(a) || Number.isNaN(b)) return `${dayText(start)} – ${dayText(end)}`;
  const year = end.slice(0, 4);
  if (start.slice(0, 4) !== year) return `${dayText(start)} – ${dayText(end)}`;
  const to =
    start.slice(0, 7) === end.slice(0, 7) ? String(Number(end.slice(8, 10))) : ` ${shortDayText(end)}`;
  return `${shortDayText(start)}${to.startsWith(' ') ? ' –' : '–'}${to}, ${year}`;
}

/** The last time named, and its name: every message of a run names the run's moment. */
let lastTime = { ms: Number.NaN, text: '' };

/** "Nov 27, 2026 at 8:33 PM UTC"; "unknown time" when `ms` is not a time. */
export function timeText(ms: number): string {
  if (!Number.isFinite(ms)) return 'unknown time';
  if (ms !== lastTime.ms) {
    lastTime = { ms, text: `${dateFormats().day.format(ms)} at ${dateFormats().clock.format(ms)} UTC` };
  }
  return lastTime.text;
}

/** Whole days from `start` to `end`, both included (1 for one day); 0 when either is not a date. */
export function daysIncluded(start: string, end: string): number {
  const days = dayNumber(end) - dayNumber(start);
  return Number.isNaN(days) || days < 0 ? 0 : days + 1;
}

/** "7 days", "1 day". */
export function dayCount(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

/**
 * How many whole days the data ending on `end` is behind `todayMs` beyond the usual one
 * (daily figures for a day are complete the day after); 0 when it is current.
 */
export function lagDays(end: string, todayMs: number): number {
  const endDay = dayNumber(end);
  if (Number.isNaN(endDay) || !Number.isFinite(todayMs)) return 0;
  return Math.max(0, epochDay(todayMs) - endDay - 1);
}

/**
 * "7 days to Nov 27, 2026"; with `todayMs`, data that ends more than a day before today
 * adds why: "7 days to Nov 15, 2026 (the latest the service has, 12 days ago)".
 */
export function periodText(days: number, end: string, todayMs?: number): string {
  const base = `${dayCount(days)} to ${dayText(end)}`;
  return `${base}${lagNote(end, todayMs)}`;
}

/** " (the latest the service has, 12 days ago)" when the data lags; "" otherwise. */
export function lagNote(end: string, todayMs: number | undefined): string {
  if (todayMs === undefined) return '';
  const lag = lagDays(end, todayMs);
  return lag > 0 ? ` (the latest the service has, ${dayCount(lag + 1)} ago)` : '';
}
