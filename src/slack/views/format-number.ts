/**
 * The shared number formatter (src/alerts/format-count.ts) as escaped mrkdwn, so Slack views
 * and alerts read the same figure the same way.
 */
import {
  formatCount as countText,
  formatPercent as percentText,
  formatSignedPercent as signedPercentText,
} from '../../alerts/format-count.js';
import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';

export function formatCount(n: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(countText(n));
}

export function formatPercent(p: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(percentText(p));
}

export function formatSignedPercent(p: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(signedPercentText(p));
}
