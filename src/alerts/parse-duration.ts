/**
 * Durations for `/visibility mute <brand> <duration>`, as people say them: "2 hours",
 * "90 minutes", "1 day", "1 hour 30 minutes", the short forms `30m`, `2h`, `1d`, `1w`,
 * `1h30m`, or an end: "until 17:00", "until tomorrow 9:00", "until Monday". An end is read
 * in the channel's time zone (the caller passes it with the current time, so tests fix the
 * clock). Bounded to 1 minute – 30 days: shorter is a typo, longer should be an unsubscribe.
 */
import { capitalised } from '../figures/plural.js';
import { addDays, zonedParts, zonedTimeToUtcMs } from './zoned-time.js';

const MIN_DURATION_MS = 60_000;
const MAX_DURATION_MS = 30 * 24 * 3_600_000;

const UNIT_MS = { w: 7 * 24 * 3_600_000, d: 24 * 3_600_000, h: 3_600_000, m: 60_000 } as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = ['w', 'd', 'h', 'm'];

/** Every spelling of a unit people type, short or long. */
const UNIT_WORDS: Readonly<Record<string, Unit>> = {
  w: 'w',
  wk: 'w',
  wks: 'w',
  week: 'w',
  weeks: 'w',
  d: 'd',
  day: 'd',
  days: 'd',
  h: 'h',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
  m: 'm',
  min: 'm',
  mins: 'm',
  minute: 'm',
  minutes: 'm',
};

/** True for a word that can be part of a duration ("2", "hours", "2h", "and"): mute finds where it starts. */
export function isDurationWord(word: string): boolean {
  const w = word.toLowerCase().replace(/,$/, '');
  return w === 'and' || /^\d+$/.test(w) || w in UNIT_WORDS || /^(\d+[a-z]+)+$/.test(w);
}

/** Monday-first isn't needed: index = JavaScript's getUTCDay(). */
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** When "until Monday" or "until tomorrow" names a day but no time: the start of a working day. */
const DEFAULT_UNTIL_TIME = '09:00';

type DurationResult =
  | {
      ok: true;
      ms: number /** Set when the input named an end ("until …") rather than a length. */;
      until?: true;
    }
  | { ok: false; error: string };

interface DurationContext {
  nowMs: number;
  /** IANA zone "until …" is read in: the subscription's, else the bot's default. */
  timeZone: string;
}

/** Said in every refusal, so the fix is on screen. */
export const DURATION_FORMS =
  'say how long, like "30 minutes", "2 hours", "1 day", "1 week" or "1 hour 30 minutes" (or short: 30m, 2h, 1d, 1h30m), or until when, like "until 17:00", "until tomorrow 9:00" or "until Monday"';

const fail = (what: string): DurationResult => ({
  ok: false,
  error: `${what} ${capitalised(DURATION_FORMS)}.`,
});

export function parseDuration(input: string, context?: DurationContext): DurationResult {
  const trimmed = input.trim();
  const lower = trimmed.toLowerCase();
  if (lower === '') return fail('How long?');
  const result = /^until\b/.test(lower)
    ? parseUntil(lower.slice(5).trim(), trimmed, context)
    : parseLength(lower, trimmed);
  if (!result.ok) return result;
  if (result.ms < MIN_DURATION_MS) return { ok: false, error: 'The shortest duration is 1 minute.' };
  if (result.ms > MAX_DURATION_MS)
    return {
      ok: false,
      error: 'The longest duration is 30 days; to stop alerts for good, unsubscribe.',
    };
  return result;
}

/** "2 hours", "1h 30m", "1 hour and 30 minutes", "90 minutes". */
function parseLength(lower: string, original: string): DurationResult {
  // "1 hour, 30 minutes" and "1 hour and 30 minutes" read the same as "1h30m".
  const text = lower.replace(/,/g, ' ').replace(/\band\b/g, ' ');
  const part = /\s*(\d+)\s*([a-z]*)\s*/y;
  let ms = 0;
  let lastUnit = -1;
  let pos = 0;
  while (pos < text.length) {
    part.lastIndex = pos;
    const m = part.exec(text);
    if (!m) return fail(`"${original}" is not a duration:`);
    const unitText = m[2]!;
    if (unitText === '') return fail(`"${m[1]}" needs a unit (minutes, hours, days or weeks):`);
    const unit = UNIT_WORDS[unitText];
    if (unit === undefined) return fail(`"${unitText}" is not a unit:`);
    const order = UNIT_ORDER.indexOf(unit);
    // Largest unit first, each once: "1h30m" is clear, "30m1h" or "1h1h" is probably a typo.
    if (order <= lastUnit) return fail(`"${original}": give each unit once, largest first;`);
    lastUnit = order;
    ms += Number(m[1]) * UNIT_MS[unit];
    pos = part.lastIndex;
  }
  return { ok: true, ms };
}

/** "HH:MM" from "9", "9:00", "09:30", "9am", "5:30pm"; null when it is not a time of day. */
function clockTime(text: string): string | null {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (m[3] !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  } else if (m[2] === undefined) {
    // A bare number is a time only with am/pm or a colon: "until 9" could be anything.
    return null;
  }
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** Day words: "today", "tomorrow", a weekday or its first three letters ("mon"). */
function dayOffset(word: string, todayWeekday: number): number | null {
  if (word === 'today') return 0;
  if (word === 'tomorrow') return 1;
  const weekday = WEEKDAYS.findIndex((d) => d === word || d.slice(0, 3) === word);
  if (weekday === -1) return null;
  // "until Monday" said on a Monday means next week's: today is already here.
  return ((weekday - todayWeekday + 6) % 7) + 1;
}

function parseUntil(rest: string, original: string, context: DurationContext | undefined): DurationResult {
  if (!context) return fail(`"${original}" needs a channel to read the time in;`);
  const { nowMs, timeZone } = context;
  // "until tomorrow at 9:00", "until Monday, 9am".
  const words = rest
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'at');
  if (words.length === 0) return fail(`Until when?`);
  const today = zonedParts(nowMs, timeZone).date;
  const todayWeekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const offset = dayOffset(words[0]!, todayWeekday);
  const timeText = (offset === null ? words : words.slice(1)).join('');
  const time = timeText === '' ? DEFAULT_UNTIL_TIME : clockTime(timeText);
  if ((offset === null && timeText === '') || time === null)
    return fail(`"${original}" is not a time I can read:`);
  let end = zonedTimeToUtcMs(addDays(today, offset ?? 0), time, timeZone);
  // "until 9:00" said at 10:00 means tomorrow's 9:00.
  if (offset === null && end <= nowMs) end = zonedTimeToUtcMs(addDays(today, 1), time, timeZone);
  if (end <= nowMs) return { ok: false, error: `"${original}" has already passed; pick a time ahead.` };
  return { ok: true, ms: end - nowMs, until: true };
}

/**
 * "1 hour 30 minutes", "2 days", "1 week 3 days": for confirmations ("muted for 2 hours"),
 * in the words people type, not the abbreviations.
 */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms / 60_000)) * 60_000;
  const parts: string[] = [];
  const labels: Record<Unit, string> = { w: 'week', d: 'day', h: 'hour', m: 'minute' };
  for (const unit of UNIT_ORDER) {
    const n = Math.floor(rest / UNIT_MS[unit]);
    if (n > 0) parts.push(`${n} ${labels[unit]}${n === 1 ? '' : 's'}`);
    rest -= n * UNIT_MS[unit];
  }
  return parts.length > 0 ? parts.join(' ') : '0 minutes';
}
