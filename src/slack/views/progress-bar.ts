import { usagePercent } from '../../figures/number-text.js';
import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';

/**
 * `▰▰▰▰▱▱▱▱▱▱ 42 %`: a usage figure people read at a glance in Slack (App Home, status,
 * AI Pages). The percent is `usagePercent`, the same whole number the alerts and digest show.
 */
export function progressBar(percent: number, width = 10): Mrkdwn {
  const pct = usagePercent(percent);
  // Any use at all shows one cell, so 3 % does not look like nothing.
  const filled = pct === 0 ? 0 : Math.min(width, Math.max(1, Math.round((pct / 100) * width)));
  return escapeMrkdwn(`${'▰'.repeat(filled)}${'▱'.repeat(width - filled)} ${pct} %`);
}
