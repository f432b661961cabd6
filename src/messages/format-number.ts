/**
 * The one number formatter (src/figures/format-number.ts) as escaped mrkdwn, so views,
 * alerts and digests read the same figure the same way and can interpolate it into
 * `mrkdwn` text without a cast.
 */

import { type FigureId, figureText } from '../figures/glossary.js';
import {
  bytesText,
  countText,
  percentText,
  signedCountText,
  signedPercentText,
  usagePercentText,
} from '../figures/number-text.js';
import { escapeMrkdwn, type Mrkdwn } from './mrkdwn.js';

export function formatCount(n: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(countText(n));
}

export function formatSignedCount(n: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(signedCountText(n));
}

export function formatPercent(p: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(percentText(p));
}

export function formatSignedPercent(p: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(signedPercentText(p));
}

export function formatUsagePercent(p: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(usagePercentText(p));
}

/** A glossary figure's value as the UI writes it ("55/100", "42 %", "1,234"). */
export function formatFigure(id: FigureId, value: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(figureText(id, value));
}

/** A size on disk ("12.4 MB"). */
export function formatBytes(n: number | null | undefined): Mrkdwn {
  return escapeMrkdwn(bytesText(n));
}
