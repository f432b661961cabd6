/**
 * The wall-clock reading in an IANA zone at an instant, with nothing but Intl (no tz
 * database dependency). One cached formatter per zone: digest times, quiet hours, the
 * demo's date tokens and the local Slack's `tz_offset` all read the clock this way.
 * An unknown zone throws Intl's RangeError.
 */
export interface LocalTimeParts {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  /** 0–23 */
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localTimeParts(ms: number, timeZone: string): LocalTimeParts {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return {
    year: p['year'] ?? 0,
    month: p['month'] ?? 0,
    day: p['day'] ?? 0,
    hour: p['hour'] ?? 0,
    minute: p['minute'] ?? 0,
    second: p['second'] ?? 0,
  };
}

/** The wall-clock reading as if it were UTC, in ms: its difference from `ms` is the zone's offset. */
export function localTimeAsUtcMs(ms: number, timeZone: string): number {
  const w = localTimeParts(ms, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}
