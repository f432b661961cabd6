/**
 * Shows a subscription's settings in words: one sentence for a list ("alerts on: cited
 * pages lost, …; digest at 09:00 UTC with a chart; no quiet hours"), and readable lines
 * that say what each value does. Values that differ from the defaults are marked "custom"
 * (not "changed": that word belongs to what someone just changed, which
 * `describeSettingChanges` states). The `key=value` line the settings command accepts is
 * made here too, for the undo hint and to compare settings; screens show the words, and the
 * syntax is only in `/visibility help settings`.
 */
import { capitalised, counted, nameList } from '../figures/plural.js';
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
    `model-alerts=${s.modelAlerts ? 'on' : 'off'}`,
    `digest=${s.digestTime}`,
    `digest-chart=${s.digestChart ? 'on' : 'off'}`,
    `charts=${s.charts}`,
    `tz=${s.timezone ?? 'default'}`,
    `quiet=${s.quietHours ? `${s.quietHours.start}-${s.quietHours.end}` : 'off'}`,
    // Only when chosen: the default line stays as it was documented before the setting existed.
    ...(s.crawlerAlerts ? [`crawler-alerts=${s.crawlerAlerts}`] : []),
    `weekly=${s.weekly ? 'on' : 'off'}`,
    `weekly-day=${s.weeklyDay}`,
    `weekly-time=${s.weeklyTime ?? 'digest'}`,
  ].join(' ');
}

/** `formatSettingsArgs` as key → value, e.g. `crawler-drop` → `40`. */
export function settingsArgValues(s: AlertSettings): Map<string, string> {
  const values = new Map(
    formatSettingsArgs(s)
      .split(' ')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  values.set('crawler-alerts', s.crawlerAlerts ?? 'auto');
  return values;
}

interface FormatSettingsOptions {
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
  /** Said inside another line (the weekly summary's day and time): only a change names it on its own. */
  within?: true;
}

/** "Mondays at 09:00" (the digest time when the summary has no time of its own). */
function weeklyWhen(s: AlertSettings): string {
  const time = s.weeklyTime ?? `${s.digestTime} (the digest time)`;
  return `${capitalised(s.weeklyDay)}s at ${time}`;
}

const CRAWLER_RULE_WORDS: Readonly<Record<string, string>> = {
  auto: "against the brand's usual range once there are 3 weeks of history, the crawler drop level before",
  range: "against the brand's usual range (the crawler drop level until there are 3 weeks of history)",
  threshold: 'by the crawler drop level only',
};

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
    key: 'crawler-alerts',
    label: 'Crawler alerts',
    words: (s) => s.crawlerAlerts ?? 'auto',
    line: (v) => CRAWLER_RULE_WORDS[v] ?? v,
  },
  {
    key: 'ai-pages',
    label: 'AI Pages usage',
    words: (s) => (s.aiPagesThresholds.length > 0 ? percents(s.aiPagesThresholds) : 'no usage alerts'),
    line: (v) => (v === 'no usage alerts' ? v : `alert at ${v} of the monthly limit`),
  },
  {
    key: 'model-alerts',
    label: 'AI model alerts',
    words: (s) => (s.modelAlerts ? 'on' : 'off'),
    line: (v) =>
      v === 'on'
        ? 'alert when an AI model stops citing you (one more API call per brand a day)'
        : 'off (turn on to hear when an AI model stops citing you)',
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
  {
    key: 'weekly',
    label: 'Weekly summary',
    words: (s) => (s.weekly ? weeklyWhen(s) : 'off'),
    line: (v) =>
      v === 'off'
        ? v
        : `${v}: the past 7 days' citations lost and won back, alerts and figures, with a chart`,
  },
  {
    key: 'weekly-day',
    label: 'Weekly summary day',
    words: (s) => capitalised(s.weeklyDay),
    line: (v) => v,
    within: true,
  },
  {
    key: 'weekly-time',
    label: 'Weekly summary time',
    words: (s) => s.weeklyTime ?? `${s.digestTime} (the digest time)`,
    line: (v) => v,
    within: true,
  },
];

/** Readable mrkdwn lines, one per setting; values that differ from the defaults are marked custom. */
export function formatSettings(s: AlertSettings, opts: FormatSettingsOptions): string[] {
  const mine = settingsArgValues(s);
  const defaults = settingsArgValues(DEFAULT_ALERT_SETTINGS);
  return LINES.filter((l) => !l.within).map((l) => {
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
    `AI crawler visits falling ${s.crawlerDropPct} % or more (a recovery notice under ${s.crawlerRecoveryPct} %)${
      s.crawlerAlerts === 'threshold'
        ? ''
        : ' until there are 3 weeks of history, then below their usual range'
    }`,
    ...(s.aiPagesThresholds.length > 0 ? [`AI Pages usage at ${percents(s.aiPagesThresholds)}`] : []),
    ...(s.modelAlerts ? ['AI models that stop citing you'] : []),
  ];
  const zone = s.timezone ?? `${opts.defaultTimezone} (the bot's default)`;
  const digest = `digest at ${s.digestTime} ${zone}${s.digestChart ? ' with a chart' : ', text only'}${s.charts === 'image' ? '; charts as images' : ''}`;
  const quiet = s.quietHours ? `quiet hours ${s.quietHours.start}–${s.quietHours.end}` : 'no quiet hours';
  const weekly = s.weekly ? `; a weekly summary on ${weeklyWhen(s)}` : '';
  return `Alerts on: ${alerts.join(', ')}; ${digest}; ${quiet}${weekly}.`;
}
