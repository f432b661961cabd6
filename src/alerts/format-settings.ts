/**
 * Shows a subscription's settings two ways: as the `key=value` line the settings command
 * accepts (so a user can copy, edit and paste it back), and as readable lines that say
 * what each value does.
 */
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './alert-settings.js';

const EVENT_LABEL = { lost: 'citation lost', competitor: 'competitor appeared', sentiment: 'sentiment fell' };

export function formatSettingsArgs(s: AlertSettings): string {
  return [
    `events=${s.events.length > 0 ? s.events.join(',') : 'none'}`,
    `sentiment-drop=${s.sentimentDrop}`,
    `crawler-drop=${s.crawlerDropPct}`,
    `crawler-recovery=${s.crawlerRecoveryPct}`,
    `ai-pages=${s.aiPagesThresholds.length > 0 ? s.aiPagesThresholds.join(',') : 'off'}`,
    `digest=${s.digestTime}`,
    `tz=${s.timezone ?? 'default'}`,
    `quiet=${s.quietHours ? `${s.quietHours.start}-${s.quietHours.end}` : 'off'}`,
  ].join(' ');
}

export interface FormatSettingsOptions {
  /** The bot's DEFAULT_TIMEZONE, shown when the subscription sets none. */
  defaultTimezone: string;
}

/** Readable mrkdwn lines, one per setting; values that differ from the defaults are marked. */
export function formatSettings(s: AlertSettings, opts: FormatSettingsOptions): string[] {
  const d = DEFAULT_ALERT_SETTINGS;
  const mark = (changed: boolean) => (changed ? ' _(changed)_' : '');
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const events = s.events.length > 0 ? s.events.map((e) => EVENT_LABEL[e]).join(', ') : 'none';
  return [
    `• *Citation alerts* (\`events\`): ${events}${mark(!same(s.events, d.events))}`,
    `• *Sentiment drop* (\`sentiment-drop\`): alert when sentiment falls by ${s.sentimentDrop} points or more${mark(s.sentimentDrop !== d.sentimentDrop)}`,
    `• *Crawler drop* (\`crawler-drop\`): alert when AI crawler visits fall ${s.crawlerDropPct} % or more week over week${mark(s.crawlerDropPct !== d.crawlerDropPct)}`,
    `• *Crawler recovery* (\`crawler-recovery\`): one notice when the fall is back under ${s.crawlerRecoveryPct} %${mark(s.crawlerRecoveryPct !== d.crawlerRecoveryPct)}`,
    `• *AI Pages usage* (\`ai-pages\`): ${s.aiPagesThresholds.length > 0 ? `alert at ${s.aiPagesThresholds.map((t) => `${t} %`).join(', ')} of the monthly limit` : 'no usage alerts'}${mark(!same(s.aiPagesThresholds, d.aiPagesThresholds))}`,
    `• *Daily digest* (\`digest\`): ${s.digestTime}${mark(s.digestTime !== d.digestTime)}`,
    `• *Time zone* (\`tz\`): ${s.timezone ?? `${opts.defaultTimezone} (the bot's default)`}${mark(s.timezone !== d.timezone)}`,
    `• *Quiet hours* (\`quiet\`): ${s.quietHours ? `${s.quietHours.start}–${s.quietHours.end}; alerts wait until they end` : 'none'}${mark(!same(s.quietHours, d.quietHours))}`,
  ];
}
