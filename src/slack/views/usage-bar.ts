import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';

/** A ten-cell text bar for a percentage ("▓▓▓▓░░░░░░ 42 %"): readable in mrkdwn and in notifications. */
export function usageBar(percent: number, cells = 10): Mrkdwn {
  const p = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  // Any use at all shows one cell, so 3 % does not look like nothing.
  const filled = p === 0 ? 0 : Math.max(1, Math.round((p / 100) * cells));
  return escapeMrkdwn(`${'▓'.repeat(filled)}${'░'.repeat(cells - filled)} ${Math.floor(p)} %`);
}
