import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';

/** Numbers as people read them in Slack: grouped thousands, rounded percentages, a real minus sign. */
export function formatCount(n: number | null | undefined): Mrkdwn {
  if (typeof n !== 'number' || !Number.isFinite(n)) return escapeMrkdwn('—');
  return escapeMrkdwn((Math.round(n * 10) / 10).toLocaleString('en-US'));
}

export function formatPercent(p: number | null | undefined): Mrkdwn {
  if (typeof p !== 'number' || !Number.isFinite(p)) return escapeMrkdwn('—');
  return escapeMrkdwn(`${Math.round(p * 10) / 10} %`);
}

/** `+12.5 %`, `−40 %`, `no change`; DESIGN.md: changes are percentages (-42.5 means −42.5 %). */
export function formatSignedPercent(p: number | null | undefined): Mrkdwn {
  if (typeof p !== 'number' || !Number.isFinite(p)) return escapeMrkdwn('no earlier figure');
  const r = Math.round(p * 10) / 10;
  if (r === 0) return escapeMrkdwn('no change');
  return escapeMrkdwn(`${r > 0 ? '+' : '−'}${Math.abs(r)} %`);
}
