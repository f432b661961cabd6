/**
 * Shows a subscription's settings in words: one sentence for a list ("alerts on: cited
 * pages lost, …; digest at 09:00 UTC with a chart; no quiet hours"), and readable lines
 * that say what each value does. Values that differ from the defaults are marked "custom"
 * (not "changed": that word belongs to what someone just changed, which
 * `describeSettingChanges` states). The `key=value` line the settings command accepts is
 * made here too, for the undo hint and to compare settings; screens show the words, and the
 * syntax is only in `/visibility help settings`.
 */
import { counted, nameList } from '../figures/plural.js';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './alert-settings.js';

const EVENT_LABEL = {
  lost: 'cited pages lost',
  competitor: 'competitors on cited pages',
  sentiment: 'sentiment drops',
};

export function formatSettingsArgs(s: AlertSettings): string {
  return [
    `events=${s.events.length > 0 ? s.events.join(',') : 'none'}`,
    `sentiment-drop=${s.sentimentDrop}`,
    `crawler-drop=${s.crawlerDropPct}`,
    `crawler-recovery=${s.crawlerRecoveryPct}`,
    `ai-pages=${s.aiPagesThresholds.length > 0 ? s.aiPagesThresholds.join(',') : 'off'}`,
    `digest=${s.digestTime}`,
    `digest-chart=${s.digestChart ? 'on' : 'off'}`,
    `charts=${s.charts}`,
    `tz=${s.timezone ?? 'default'}`,
    `quiet=${s.quietHours ? `${s.quietHours.start}-${s.quietHours.end}` : 'off'}`,
  ].join(' ');
}

/** `formatSettingsArgs` as key → value, e.g. `crawler-drop` → `40`. */
export function settingsArgValues(s: AlertSettings): Map<string, string> {
  return new Map(
    formatSettingsArgs(s)
      .split(' ')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
}

export interface FormatSettingsOptions {
  /** The bot's DEFAULT_TIMEZONE, shown when the subscription sets none. */
  defaultTimezone: string;
}

interface SettingLine {
  key: string;
  label: string;
  /** The value in words, as the readable line shows it. */
  words: (s: AlertSettings, o: FormatSettingsOptions) => string;
  /** What the line says around the value. */
  line: (value: string) => string;
}

/** "80, 90 and 100 %". */
const percents = (xs: readonly number[]) => `${nameList(xs.map(String))} %`;

/** One row per setting, in the order formatSettingsArgs prints them. */
const LINES: readonly SettingLine[] = [
  {
    key: 'events',
    label: 'Citation alerts',
    words: (s) => (s.events.length > 0 ? s.events.map((e) => EVENT_LABEL[e]).join(', ') : 'none'),
    line: (v) => v,
  },
  {
    key: 'sentiment-drop',
    label: 'Sentiment drop',
    words: (s) => counted(s.sentimentDrop, 'point'),
    line: (v) => `alert when sentiment falls by ${v} or more`,
  },
  {
    key: 'crawler-drop',
    label: 'Crawler drop',
    words: (s) => `${s.crawlerDropPct} %`,
    line: (v) => `alert when AI crawler visits fall ${v} or more week over week`,
  },
  {
    key: 'crawler-recovery',
    label: 'Crawler recovery',
    words: (s) => `${s.crawlerRecoveryPct} %`,
    line: (v) => `one notice when the fall is back under ${v}`,
  },
  {
    key: 'ai-pages',
    label: 'AI Pages usage',
    words: (s) => (s.aiPagesThresholds.length > 0 ? percents(s.aiPagesThresholds) : 'no usage alerts'),
    line: (v) => (v === 'no usage alerts' ? v : `alert at ${v} of the monthly limit`),
  },
  { key: 'digest', label: 'Daily digest', words: (s) => s.digestTime, line: (v) => v },
  {
    key: 'digest-chart',
    label: 'Digest chart',
    words: (s) => (s.digestChart ? 'on' : 'off'),
    line: (v) => (v === 'on' ? 'a chart of the last 7 days follows each digest' : 'text only'),
  },
  {
    key: 'charts',
    label: 'Charts',
    words: (s) => (s.charts === 'image' ? 'as images' : 'drawn by Slack'),
    line: (v) =>
      v === 'as images'
        ? 'as images, for Slack apps that do not draw charts yet'
        : 'drawn by Slack in the message (as images where Slack cannot draw them)',
  },
  {
    key: 'tz',
    label: 'Time zone',
    words: (s, o) => s.timezone ?? `${o.defaultTimezone} (the bot's default)`,
    line: (v) => v,
  },
  {
    key: 'quiet',
    label: 'Quiet hours',
    words: (s) => (s.quietHours ? `${s.quietHours.start}–${s.quietHours.end}` : 'none'),
    line: (v) => (v === 'none' ? v : `${v}; alerts wait until they end`),
  },
];

/** Readable mrkdwn lines, one per setting; values that differ from the defaults are marked custom. */
export function formatSettings(s: AlertSettings, opts: FormatSettingsOptions): string[] {
  const mine = settingsArgValues(s);
  const defaults = settingsArgValues(DEFAULT_ALERT_SETTINGS);
  return LINES.map((l) => {
    const custom = mine.get(l.key) !== defaults.get(l.key);
    return `• *${l.label}*: ${l.line(l.words(s, opts))}${custom ? ' _(custom)_' : ''}`;
  });
}

/**
 * What a change did, one line per setting that differs: `*Crawler drop*: 40 % → 25 %`.
 * Compared through the command line's values, so a setting added to formatSettingsArgs is
 * reported too (by its key, until it gets a row here).
 */
export function describeSettingChanges(
  before: AlertSettings,
  after: AlertSettings,
  opts: FormatSettingsOptions,
): string[] {
  const was = settingsArgValues(before);
  const now = settingsArgValues(after);
  const out: string[] = [];
  for (const [key, value] of now) {
    if (was.get(key) === value) continue;
    const row = LINES.find((l) => l.key === key);
    out.push(
      row
        ? `• *${row.label}*: ${row.words(before, opts)} → ${row.words(after, opts)}`
        : `• *${key}*: ${was.get(key) ?? '?'} → ${value}`,
    );
  }
  return out;
}

/**
 * The settings as one sentence for a list of subscriptions: "Alerts on: cited pages lost,
 * competitors on cited pages, sentiment drops of 20 points or more, AI crawler visits
 * falling 40 % or more (a recovery notice under 20 %), AI Pages usage at 80, 90 and 100 %;
 * digest at 09:00 UTC (the bot's default) with a chart; no quiet hours."
 */
export function describeSettings(s: AlertSettings, opts: FormatSettingsOptions): string {
  const events = s.events.map((e) =>
    e === 'sentiment' ? `sentiment drops of ${counted(s.sentimentDrop, 'point')} or more` : EVENT_LABEL[e],
  );
  const alerts = [
    ...events,
    `AI crawler visits falling ${s.crawlerDropPct} % or more (a recovery notice under ${s.crawlerRecoveryPct} %)`,
    ...(s.aiPagesThresholds.length > 0 ? [`AI Pages usage at ${percents(s.aiPagesThresholds)}`] : []),
  ];
  const zone = s.timezone ?? `${opts.defaultTimezone} (the bot's default)`;
  const digest = `digest at ${s.digestTime} ${zone}${s.digestChart ? ' with a chart' : ', text only'}${s.charts === 'image' ? '; charts as images' : ''}`;
  const quiet = s.quietHours ? `quiet hours ${s.quietHours.start}–${s.quietHours.end}` : 'no quiet hours';
  return `Alerts on: ${alerts.join(', ')}; ${digest}; ${quiet}.`;
}
