import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';

/** `▰▰▰▰▱▱▱▱▱▱ 42 %`: a usage figure people read at a glance in Slack. */
export function progressBar(percent: number, width = 10): Mrkdwn {
  const pct = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const filled = Math.round((pct / 100) * width);
  return escapeMrkdwn(`${'▰'.repeat(filled)}${'▱'.repeat(width - filled)} ${Math.round(pct)} %`);
}
