/**
 * The text Slack shows for a date token (`<!date^seconds^format|fallback>`, the rich text
 * `date` element), in the reader's zone: https://docs.slack.dev/messaging/formatting-message-text#date-formatting.
 * Slack writes English words and a 12-hour clock for a default user; so does this.
 * Undefined when the format holds a token Slack would not know: the caller shows the fallback then.
 */
import { type LocalTimeParts, localTimeParts } from '../local-time-parts.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The calendar day as a number of days, to compare two local dates. */
const dayNumber = (p: LocalTimeParts) => Date.UTC(p.year, p.month - 1, p.day) / DAY_MS;

function clock(p: LocalTimeParts, seconds: boolean): string {
  const h12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${h12}:${pad2(p.minute)}${seconds ? `:${pad2(p.second)}` : ''} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

const RELATIVE_UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['day', DAY_MS],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 minutes ago", "in 2 hours", "now": the largest whole unit. */
function ago(ms: number, nowMs: number): string {
  const diff = ms - nowMs;
  for (const [unit, size] of RELATIVE_UNITS) {
    const n = Math.trunc(diff / size);
    if (n !== 0) return relative.format(n, unit);
  }
  return relative.format(Math.trunc(diff / 1000), 'second');
}

interface SlackDateOptions {
  timeZone: string;
  nowMs: number;
}

export function formatSlackDate(seconds: number, format: string, o: SlackDateOptions): string | undefined {
  if (!Number.isFinite(seconds)) return undefined;
  const ms = seconds * 1000;
  let p: LocalTimeParts;
  let today: LocalTimeParts;
  try {
    p = localTimeParts(ms, o.timeZone);
    today = localTimeParts(o.nowMs, o.timeZone);
  } catch {
    return undefined;
  }
  const offset = dayNumber(p) - dayNumber(today);
  const nearby = offset === 0 ? 'today' : offset === -1 ? 'yesterday' : offset === 1 ? 'tomorrow' : undefined;
  const month = MONTHS[p.month - 1]!;
  const weekday = WEEKDAYS[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()]!;
  const date = `${month} ${ordinal(p.day)}, ${p.year}`;
  const dateShort = `${month.slice(0, 3)} ${p.day}, ${p.year}`;
  const dateLong = `${weekday}, ${date}`;
  const tokens: Record<string, string> = {
    date_num: `${p.year}-${pad2(p.month)}-${pad2(p.day)}`,
    date_slash: `${pad2(p.day)}/${pad2(p.month)}/${p.year}`,
    date,
    date_short: dateShort,
    date_long: dateLong,
    date_long_full: `${month} ${p.day}, ${p.year}`,
    date_pretty: nearby ?? date,
    date_short_pretty: nearby ?? dateShort,
    date_long_pretty: nearby ?? dateLong,
    day_divider_pretty:
      nearby ?? (p.year === today.year ? `${weekday}, ${month} ${ordinal(p.day)}` : dateLong),
    time: clock(p, false),
    time_secs: clock(p, true),
    ago: ago(ms, o.nowMs),
  };
  let unknown = false;
  const out = format.replace(/\{([a-z_]+)\}/g, (whole, name: string, at: number) => {
    const value = Object.hasOwn(tokens, name) ? tokens[name] : undefined;
    if (value === undefined) {
      unknown = true;
      return whole;
    }
    // "Today at 9:00 AM", "… was yesterday": a sentence starts with a capital.
    return at === 0 ? value.charAt(0).toUpperCase() + value.slice(1) : value;
  });
  return unknown ? undefined : out;
}
