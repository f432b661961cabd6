/**
 * Parses the `key=value …` part of `/visibility settings <brand> …`, e.g.
 * `ai-pages=80,90,100 crawler-drop=40 events=lost,sentiment tz=Berlin quiet=off` (a time zone
 * by its city or its IANA name, src/time-zones.ts).
 * Every problem is reported at once, each naming the setting and an example that works,
 * because the people typing this are not engineers and retrying one error at a time is
 * tedious.
 */
import { resolveTimeZone } from '../time-zones.js';
import {
  type AlertEventName,
  type AlertSettings,
  alertEventNames,
  alertSettingsSchema,
  DEFAULT_ALERT_SETTINGS,
  type WeekDay,
  weekDays,
} from './alert-settings.js';

export type SettingsArgsResult =
  | { ok: true; settings: AlertSettings; changed: (keyof AlertSettings)[] }
  | { ok: false; errors: string[] };

/** The user-facing names, in the order `formatSettingsArgs` prints them. */
export const settingKeys = [
  'events',
  'sentiment-drop',
  'crawler-drop',
  'crawler-recovery',
  'crawler-alerts',
  'ai-pages',
  'model-alerts',
  'digest',
  'digest-chart',
  'charts',
  'tz',
  'quiet',
  'weekly',
  'weekly-day',
  'weekly-time',
] as const;
export type SettingKey = (typeof settingKeys)[number];

export const SETTING_EXAMPLES: Readonly<Record<SettingKey, string>> = {
  events: 'events=lost,competitor,sentiment (or events=none)',
  'sentiment-drop': 'sentiment-drop=20',
  'crawler-drop': 'crawler-drop=40',
  'crawler-recovery': 'crawler-recovery=20',
  'crawler-alerts':
    'crawler-alerts=range (or threshold, or auto: the range once there are 3 weeks of history)',
  'ai-pages': 'ai-pages=80,90,100 (or ai-pages=off)',
  'model-alerts': 'model-alerts=on (or model-alerts=off)',
  digest: 'digest=09:00',
  'digest-chart': 'digest-chart=off (or digest-chart=on)',
  charts: 'charts=image (or charts=native)',
  tz: 'tz=Berlin (a city or a zone such as Europe/Berlin; or tz=default)',
  quiet: 'quiet=22:00-07:00 (or quiet=off)',
  weekly: 'weekly=on (or weekly=off)',
  'weekly-day': 'weekly-day=monday',
  'weekly-time': 'weekly-time=09:00 (or weekly-time=digest for the digest time)',
};

const EVENT_ALIASES: Readonly<Record<string, AlertEventName>> = {
  lost: 'lost',
  competitor: 'competitor',
  competitors: 'competitor',
  competitor_appeared: 'competitor',
  sentiment: 'sentiment',
  sentiment_changed: 'sentiment',
};

const OFF = new Set(['off', 'none', 'no', 'false']);
const ON = new Set(['on', 'yes', 'true']);

type Patch = Partial<AlertSettings>;
type FieldParser = (value: string) => { patch: Patch } | { error: string };

function intIn(value: string, min: number, max: number): number | null {
  const v = value.endsWith('%') ? value.slice(0, -1) : value;
  if (!/^\d{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
}

/** Accepts `9:00` as well as `09:00`; returns the canonical HH:MM. */
function clockTime(value: string): string | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return null;
  return `${String(h).padStart(2, '0')}:${m[2]}`;
}

/** `mon`, `Monday`, `MONDAY` → `monday`. */
function weekDay(value: string): WeekDay | null {
  const v = value.toLowerCase();
  return weekDays.find((d) => d === v || (v.length >= 3 && d.startsWith(v))) ?? null;
}

const PARSERS: Readonly<Record<SettingKey, FieldParser>> = {
  events(value) {
    const v = value.toLowerCase();
    if (OFF.has(v)) return { patch: { events: [] } };
    if (v === 'all') return { patch: { events: [...alertEventNames] } };
    const picked = new Set<AlertEventName>();
    for (const part of v.split(',').filter(Boolean)) {
      const e = EVENT_ALIASES[part];
      if (!e)
        return { error: `events: "${part}" is not an event; use lost, competitor, sentiment, all or none` };
      picked.add(e);
    }
    if (picked.size === 0)
      return { error: 'events: name at least one of lost, competitor, sentiment, or none' };
    return { patch: { events: alertEventNames.filter((e) => picked.has(e)) } };
  },
  'sentiment-drop'(value) {
    const n = intIn(value, 1, 100);
    return n === null
      ? { error: `sentiment-drop: "${value}" must be a whole number of points from 1 to 100` }
      : { patch: { sentimentDrop: n } };
  },
  'crawler-drop'(value) {
    const n = intIn(value, 1, 100);
    return n === null
      ? { error: `crawler-drop: "${value}" must be a whole percentage from 1 to 100` }
      : { patch: { crawlerDropPct: n } };
  },
  'crawler-recovery'(value) {
    const n = intIn(value, 0, 99);
    return n === null
      ? { error: `crawler-recovery: "${value}" must be a whole percentage from 0 to 99` }
      : { patch: { crawlerRecoveryPct: n } };
  },
  'crawler-alerts'(value) {
    const v = value.toLowerCase();
    if (v === 'auto' || v === 'default') return { patch: { crawlerAlerts: undefined } };
    if (v === 'range' || v === 'threshold') return { patch: { crawlerAlerts: v } };
    return {
      error: `crawler-alerts: "${value}" must be range (the brand's usual range), threshold (the crawler-drop level) or auto`,
    };
  },
  'ai-pages'(value) {
    if (OFF.has(value.toLowerCase())) return { patch: { aiPagesThresholds: [] } };
    const parts = value.split(',').filter(Boolean);
    const levels: number[] = [];
    for (const part of parts) {
      const n = intIn(part, 1, 100);
      if (n === null) return { error: `ai-pages: "${part}" must be a whole percentage from 1 to 100` };
      levels.push(n);
    }
    if (levels.length === 0) return { error: 'ai-pages: give one or more levels, e.g. ai-pages=80,90,100' };
    if (new Set(levels).size > 10) return { error: 'ai-pages: at most 10 levels' };
    return { patch: { aiPagesThresholds: [...new Set(levels)].sort((a, b) => a - b) } };
  },
  digest(value) {
    const t = clockTime(value);
    return t === null
      ? { error: `digest: "${value}" must be a time of day as HH:MM, e.g. digest=09:00` }
      : { patch: { digestTime: t } };
  },
  'model-alerts'(value) {
    const v = value.toLowerCase();
    if (OFF.has(v)) return { patch: { modelAlerts: false } };
    if (ON.has(v)) return { patch: { modelAlerts: true } };
    return { error: `model-alerts: "${value}" must be on or off, e.g. model-alerts=on` };
  },
  'digest-chart'(value) {
    const v = value.toLowerCase();
    if (OFF.has(v)) return { patch: { digestChart: false } };
    if (ON.has(v)) return { patch: { digestChart: true } };
    return { error: `digest-chart: "${value}" must be on or off, e.g. digest-chart=off` };
  },
  charts(value) {
    const v = value.toLowerCase();
    if (v === 'native' || v === 'image') return { patch: { charts: v } };
    if (v === 'images') return { patch: { charts: 'image' } };
    return {
      error: `charts: "${value}" must be native (drawn by Slack) or image, e.g. charts=image`,
    };
  },
  tz(value) {
    if (value.toLowerCase() === 'default') return { patch: { timezone: null } };
    const found = resolveTimeZone(value);
    if (found.ok) return { patch: { timezone: found.zone } };
    const list = found.suggestions;
    const guess =
      list.length === 0
        ? ''
        : ` Did you mean ${list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`}?`;
    return {
      error: `tz: "${value}" is not a time zone.${guess} Give a city such as Berlin, or a zone name such as Europe/Berlin or UTC`,
    };
  },
  quiet(value) {
    if (OFF.has(value.toLowerCase())) return { patch: { quietHours: null } };
    const m = /^([^-]+)-([^-]+)$/.exec(value);
    const start = m ? clockTime(m[1]!) : null;
    const end = m ? clockTime(m[2]!) : null;
    if (start === null || end === null)
      return { error: `quiet: "${value}" must be START-END as HH:MM-HH:MM, e.g. quiet=22:00-07:00, or off` };
    if (start === end)
      return { error: 'quiet: start and end must differ (use quiet=off for no quiet hours)' };
    return { patch: { quietHours: { start, end } } };
  },
  weekly(value) {
    const v = value.toLowerCase();
    if (OFF.has(v)) return { patch: { weekly: false } };
    if (ON.has(v)) return { patch: { weekly: true } };
    return { error: `weekly: "${value}" must be on or off, e.g. weekly=on` };
  },
  'weekly-day'(value) {
    const d = weekDay(value);
    return d === null
      ? { error: `weekly-day: "${value}" must be a day of the week, e.g. weekly-day=monday` }
      : { patch: { weeklyDay: d } };
  },
  'weekly-time'(value) {
    if (value.toLowerCase() === 'digest') return { patch: { weeklyTime: null } };
    const t = clockTime(value);
    return t === null
      ? {
          error: `weekly-time: "${value}" must be a time of day as HH:MM, e.g. weekly-time=09:00, or digest for the digest time`,
        }
      : { patch: { weeklyTime: t } };
  },
};

const PATCH_FIELD: Readonly<Record<SettingKey, keyof AlertSettings>> = {
  events: 'events',
  'sentiment-drop': 'sentimentDrop',
  'crawler-drop': 'crawlerDropPct',
  'crawler-recovery': 'crawlerRecoveryPct',
  'crawler-alerts': 'crawlerAlerts',
  'ai-pages': 'aiPagesThresholds',
  'model-alerts': 'modelAlerts',
  digest: 'digestTime',
  'digest-chart': 'digestChart',
  charts: 'charts',
  tz: 'timezone',
  quiet: 'quietHours',
  weekly: 'weekly',
  'weekly-day': 'weeklyDay',
  'weekly-time': 'weeklyTime',
};

const isSettingKey = (k: string): k is SettingKey => (settingKeys as readonly string[]).includes(k);

export function parseSettingsArgs(
  input: string | readonly string[],
  base: AlertSettings = DEFAULT_ALERT_SETTINGS,
): SettingsArgsResult {
  const raw = (typeof input === 'string' ? input.split(/\s+/) : input.flatMap((t) => t.split(/\s+/))).filter(
    Boolean,
  );
  // `events=lost, sentiment` (a space after the comma) is one value, not two tokens, and
  // so is a city of several words: `tz=New York`.
  const tokens: string[] = [];
  for (const t of raw) {
    const last = tokens.length - 1;
    if (last >= 0 && tokens[last]!.endsWith(',') && !t.includes('=')) tokens[last] += t;
    else if (last >= 0 && /^tz=/i.test(tokens[last]!) && !t.includes('=')) tokens[last] += ` ${t}`;
    else tokens.push(t);
  }
  const errors: string[] = [];
  const seen = new Set<SettingKey>();
  let patch: Patch = {};
  for (const token of tokens) {
    const eq = token.indexOf('=');
    if (eq <= 0) {
      errors.push(`"${token}" is not key=value; for example ${SETTING_EXAMPLES['crawler-drop']}`);
      continue;
    }
    const key = token.slice(0, eq).toLowerCase();
    const value = token.slice(eq + 1);
    if (!isSettingKey(key)) {
      errors.push(`"${key}" is not a setting; the settings are ${settingKeys.join(', ')}`);
      continue;
    }
    if (seen.has(key)) {
      errors.push(`${key} is given twice; give each setting once`);
      continue;
    }
    seen.add(key);
    if (value === '') {
      errors.push(`${key} has no value; for example ${SETTING_EXAMPLES[key]}`);
      continue;
    }
    const r = PARSERS[key](value);
    if ('error' in r) errors.push(r.error);
    else patch = { ...patch, ...r.patch };
  }
  if (errors.length > 0) return { ok: false, errors };

  const merged = { ...base, ...patch };
  if (merged.crawlerRecoveryPct >= merged.crawlerDropPct) {
    return {
      ok: false,
      errors: [
        `crawler-recovery (${merged.crawlerRecoveryPct}) must be below crawler-drop (${merged.crawlerDropPct}), ` +
          'otherwise a drop would count as recovered at once',
      ],
    };
  }
  // The field parsers already enforce every bound; the schema is the last word so the
  // stored JSON always reads back.
  const checked = alertSettingsSchema().safeParse(merged);
  if (!checked.success) {
    return { ok: false, errors: checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  return { ok: true, settings: checked.data, changed: [...seen].map((k) => PATCH_FIELD[k]) };
}

/**
 * One setting's value on its own (a form's field): its error names the setting like the
 * command's do (`crawler-drop: "x" must be …`). Settings that depend on each other (the
 * recovery level below the drop) are checked by parseSettingsArgs over all of them.
 */
export function parseSettingValue(
  key: SettingKey,
  value: string,
): { ok: true } | { ok: false; error: string } {
  const r = PARSERS[key](value);
  return 'error' in r ? { ok: false, error: r.error } : { ok: true };
}
