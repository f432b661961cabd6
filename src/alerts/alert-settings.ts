/**
 * Per-subscription alert settings. Defaults are DESIGN.md "Alert semantics"; every
 * threshold is configurable per subscription. Stored as JSON in the subscription row and
 * always read back through `resolveAlertSettings`, so a field added later gets its default.
 */
import { z } from 'zod';

/** Feed events that can alert; `new` never alerts, it goes to the digest. */
export const alertEventNames = ['lost', 'competitor', 'sentiment'] as const;
export type AlertEventName = (typeof alertEventNames)[number];

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;
export const clockTimeSchema = z.string().regex(hhmm, 'must be a time of day as HH:MM (00:00 to 23:59)');

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const quietHoursSchema = z
  .object({ start: clockTimeSchema, end: clockTimeSchema })
  .refine((q) => q.start !== q.end, { message: 'quiet hours must start and end at different times' });
export type QuietHours = z.infer<typeof quietHoursSchema>;

export const alertSettingsSchema = z
  .object({
    events: z
      .array(z.enum(alertEventNames))
      .default([...alertEventNames])
      .transform((xs) => alertEventNames.filter((e) => xs.includes(e))),
    /** A `sentiment_changed` event alerts when sentiment falls by at least this many points. */
    sentimentDrop: z.number().int().min(1).max(100).default(20),
    /** Crawler visits (7 days vs the previous 7) falling by at least this % alert. */
    crawlerDropPct: z.number().int().min(1).max(100).default(40),
    /** …and one recovery notice once the fall is back under this %. */
    crawlerRecoveryPct: z.number().int().min(0).max(99).default(20),
    /** AI Pages `percentage_used` levels, each alerted once per billing period; [] = none. */
    aiPagesThresholds: z
      .array(z.number().int().min(1).max(100))
      .max(10)
      .default([80, 90, 100])
      .transform((xs) => [...new Set(xs)].sort((a, b) => a - b)),
    digestTime: clockTimeSchema.default('09:00'),
    /** A chart of the last 7 days follows each digest (uploaded after its text). */
    digestChart: z.boolean().default(true),
    /** IANA zone; null = the bot's DEFAULT_TIMEZONE. */
    timezone: z
      .string()
      .refine(isValidTimeZone, { message: 'is not a known IANA time zone' })
      .nullable()
      .default(null),
    quietHours: quietHoursSchema.nullable().default(null),
  })
  .refine((s) => s.crawlerRecoveryPct < s.crawlerDropPct, {
    message: 'the crawler recovery level must be below the crawler drop level',
    path: ['crawlerRecoveryPct'],
  });

export type AlertSettings = z.output<typeof alertSettingsSchema>;

export const DEFAULT_ALERT_SETTINGS: AlertSettings = Object.freeze(alertSettingsSchema.parse({}));

/**
 * Reads stored settings JSON. Our own parser wrote it, so it is valid unless a later
 * version tightened a bound; then the defaults are the safe answer rather than a crash in
 * a job that serves every other subscription too.
 */
export function resolveAlertSettings(raw: unknown): AlertSettings {
  const parsed = alertSettingsSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : { ...DEFAULT_ALERT_SETTINGS };
}
