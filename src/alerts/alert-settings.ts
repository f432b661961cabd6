/**
 * Per-subscription alert settings. Defaults are docs/alert-semantics.md; every
 * threshold is configurable per subscription. Stored as JSON in the subscription row and
 * always read back through `resolveAlertSettings`, so a field added later gets its default.
 * The schema is built on first use, not when the module loads: a job run with no
 * subscription reads no settings, and building (then parsing the defaults with) a schema
 * of this size is a noticeable part of a short `run-job`.
 */
import * as z from 'zod/mini';

/** Feed events that can alert; `new` never alerts, it goes to the digest. */
/**
 * How crawler falls are judged: `range` against the brand's usual range (once its history
 * allows one), `threshold` by the fixed drop level. Unset (the default, `auto` in the
 * settings command) is the range once enough history exists and the threshold before; left
 * out of the stored JSON so settings saved before this existed read back unchanged.
 */
const crawlerAlertRules = ['range', 'threshold'] as const;

export const alertEventNames = ['lost', 'competitor', 'sentiment'] as const;
export type AlertEventName = (typeof alertEventNames)[number];

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;
const clockTimeSchema = () =>
  z.string().check(z.regex(hhmm, 'must be a time of day as HH:MM (00:00 to 23:59)'));

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Days a weekly summary can go out on, Monday first. */
export const weekDays = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type WeekDay = (typeof weekDays)[number];

const quietHoursSchema = () =>
  z
    .object({ start: clockTimeSchema(), end: clockTimeSchema() })
    .check(z.refine((q) => q.start !== q.end, 'quiet hours must start and end at different times'));
export type QuietHours = z.infer<ReturnType<typeof quietHoursSchema>>;

/** A whole number from `min` to `max`, saying so when it is not. */
const wholeNumber = (min: number, max: number) =>
  z.int().check(z.gte(min, `must be ${min} or more`), z.lte(max, `must be ${max} or less`));

/** The defaults (docs/alert-semantics.md): what the schema fills in for a field left out. */
const DEFAULTS = {
  events: alertEventNames,
  sentimentDrop: 20,
  crawlerDropPct: 40,
  crawlerRecoveryPct: 20,
  aiPagesThresholds: [80, 90, 100],
  modelAlerts: false,
  digestTime: '09:00',
  digestChart: true,
  charts: 'native',
  timezone: null,
  quietHours: null,
  weekly: false,
  weeklyDay: 'monday',
  weeklyTime: null,
} as const;

const buildAlertSettingsSchema = () =>
  z
    .object({
      events: z.pipe(
        z._default(z.array(z.enum(alertEventNames)), [...DEFAULTS.events]),
        z.transform((xs: AlertEventName[]) => alertEventNames.filter((e) => xs.includes(e))),
      ),
      /** A `sentiment_changed` event alerts when sentiment falls by at least this many points. */
      sentimentDrop: z._default(wholeNumber(1, 100), DEFAULTS.sentimentDrop),
      /** Crawler visits (7 days vs the previous 7) falling by at least this % alert. */
      crawlerDropPct: z._default(wholeNumber(1, 100), DEFAULTS.crawlerDropPct),
      /** …and one recovery notice once the fall is back under this %. */
      crawlerRecoveryPct: z._default(wholeNumber(0, 99), DEFAULTS.crawlerRecoveryPct),
      /** Which rule judges crawler falls (see crawlerAlertRules). */
      crawlerAlerts: z.optional(z.enum(crawlerAlertRules)),
      /** AI Pages `percentage_used` levels, each alerted once per billing period; [] = none. */
      aiPagesThresholds: z.pipe(
        z._default(z.array(wholeNumber(1, 100)).check(z.maxLength(10, 'at most 10 levels')), [
          ...DEFAULTS.aiPagesThresholds,
        ]),
        z.transform((xs: number[]) => [...new Set(xs)].sort((a, b) => a - b)),
      ),
      /**
       * Alert when an AI model stops citing the brand (detect-model-citations.ts). Off unless
       * asked for: it costs one more API call per brand per day (the citation list), which at
       * the defaults would take one Scale key below the 1,500 brands the plan promises.
       */
      modelAlerts: z._default(z.boolean(), DEFAULTS.modelAlerts),
      digestTime: z._default(clockTimeSchema(), DEFAULTS.digestTime),
      /** A chart of the last 7 days follows each digest (uploaded after its text). */
      digestChart: z._default(z.boolean(), DEFAULTS.digestChart),
      /**
       * Charts drawn by Slack in the message (`native`), or as images (`image`), for teams
       * whose Slack apps do not show Slack's charts yet.
       */
      charts: z._default(z.enum(['native', 'image']), DEFAULTS.charts),
      /** IANA zone; null = the bot's DEFAULT_TIMEZONE. */
      timezone: z._default(
        z.nullable(z.string().check(z.refine(isValidTimeZone, 'is not a known IANA time zone'))),
        DEFAULTS.timezone,
      ),
      quietHours: z._default(z.nullable(quietHoursSchema()), DEFAULTS.quietHours),
      /** A weekly summary of the past 7 days (opt-in), on `weeklyDay` at `weeklyTime`. */
      weekly: z._default(z.boolean(), DEFAULTS.weekly),
      weeklyDay: z._default(z.enum(weekDays), DEFAULTS.weeklyDay),
      /** Local time of the weekly summary; null = the digest time. */
      weeklyTime: z._default(z.nullable(clockTimeSchema()), DEFAULTS.weeklyTime),
    })
    .check(
      z.refine((s) => s.crawlerRecoveryPct < s.crawlerDropPct, {
        message: 'the crawler recovery level must be below the crawler drop level',
        path: ['crawlerRecoveryPct'],
      }),
    );

export type AlertSettings = z.output<ReturnType<typeof buildAlertSettingsSchema>>;

/** Every field at its default: what `alertSettingsSchema().parse({})` returns (a test holds the two together). */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = Object.freeze({
  ...DEFAULTS,
  events: [...DEFAULTS.events],
  aiPagesThresholds: [...DEFAULTS.aiPagesThresholds],
});

let alertSettings: ReturnType<typeof buildAlertSettingsSchema> | undefined;

/** The settings' schema (built on first use, see above). */
export function alertSettingsSchema(): ReturnType<typeof buildAlertSettingsSchema> {
  alertSettings ??= buildAlertSettingsSchema();
  return alertSettings;
}

/**
 * Reads stored settings JSON. Our own parser wrote it, so it is valid unless a later
 * version tightened a bound; then the defaults are the safe answer rather than a crash in
 * a job that serves every other subscription too.
 */
export function resolveAlertSettings(raw: unknown): AlertSettings {
  const parsed = alertSettingsSchema().safeParse(raw ?? {});
  return parsed.success ? parsed.data : { ...DEFAULT_ALERT_SETTINGS };
}
