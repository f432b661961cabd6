/**
 * Numbers as people read them, in alerts, digests and Slack views alike: grouped thousands,
 * at most one decimal, a real minus sign. One formatter for every surface, so a figure never
 * reads one way in an alert and another on the App Home. Slack code wraps these as Mrkdwn
 * (src/slack/views/format-number.ts); the text itself is decided here.
 *
 * One shared `Intl.NumberFormat`, because `Number#toLocaleString` builds a new ICU
 * formatter on every call, which is measurable when a run writes thousands of alerts.
 * Made on the first number rather than at import: the first Intl object loads ICU, a
 * start-up cost a process that formats nothing (run-job with nothing to do) need not pay.
 */
let number: Intl.NumberFormat | undefined;

/** What a missing or non-finite figure reads as. */
export const NO_FIGURE = '—';

/** "12,345", "4.5"; "—" when there is no figure. */
export function formatCount(n: number | null | undefined): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return NO_FIGURE;
  // Whole numbers below 1,000 need no grouping: the same text without ICU.
  if (Number.isInteger(n) && n >= 0 && n < 1000) return String(n);
  number ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  return number.format(n);
}

/** "42.5 %"; "—" when there is no figure. */
export function formatPercent(p: number | null | undefined): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return NO_FIGURE;
  return `${Math.round(p * 10) / 10} %`;
}

/** `+12.5 %`, `−40 %`, `no change`; DESIGN.md: changes are percentages (-42.5 means −42.5 %). */
export function formatSignedPercent(p: number | null | undefined): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return 'no earlier figure';
  const r = Math.round(p * 10) / 10;
  if (r === 0) return 'no change';
  return `${r > 0 ? '+' : '−'}${Math.abs(r)} %`;
}

/**
 * The whole percent of a quota used (AI Pages `percentage_used`, the daily API count), the
 * one rounding every screen shows. Rounded down, because the alerts fire when the figure
 * reaches a level: 79.6 % reads "79 %", not an "80 %" that raised no 80 % alert.
 */
export function usagePercent(p: number | null | undefined): number {
  if (typeof p !== 'number' || !Number.isFinite(p)) return 0;
  return Math.max(0, Math.floor(p));
}
