/**
 * Numbers as people read them, on every surface (views, alerts, digests, charts, the App
 * Home): grouped thousands, at most one decimal, a real minus sign; percentages whole. One
 * formatter, so a figure never reads one way in an alert and another on the App Home.
 * Slack code takes these as Mrkdwn from src/messages/format-number.ts; the text itself is
 * decided here.
 *
 * One shared `Intl.NumberFormat`, because `Number#toLocaleString` builds a new ICU
 * formatter on every call, which is measurable when a run writes thousands of alerts.
 * Made on the first number rather than at import: the first Intl object loads ICU, a
 * start-up cost a process that formats nothing (run-job with nothing to do) need not pay.
 */
let number: Intl.NumberFormat | undefined;

/** What a missing or non-finite figure reads as. */
export const NO_FIGURE = '—';

/** The minus sign a reader expects ("−5"), not the hyphen a keyboard types. */
const MINUS = '−';

const isFigure = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** "12,345", "4.5", "−1,200"; "—" when there is no figure. */
export function countText(n: number | null | undefined): string {
  if (!isFigure(n)) return NO_FIGURE;
  // Whole numbers from 0 to 999 need no grouping: the same text without ICU.
  if (Number.isInteger(n) && n >= 0 && n < 1000) return String(n);
  number ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  const text = number.format(n);
  return text.startsWith('-') ? `${MINUS}${text.slice(1)}` : text;
}

/** "+12", "−5", "no change": how far a count moved; "—" when there is no figure. */
export function signedCountText(n: number | null | undefined): string {
  if (!isFigure(n)) return NO_FIGURE;
  const text = countText(Math.abs(n));
  if (text === '0') return 'no change';
  return `${n > 0 ? '+' : MINUS}${text}`;
}

/**
 * The one percent rounding: whole percents, because a marketer reads "42 %" at a glance
 * and a tenth of a percent changes no decision. Only a figure smaller than one percent
 * keeps its tenth, so a small real change never reads as zero ("0.4 %", not "0 %").
 */
function percentDigits(p: number): number {
  const whole = Math.round(Math.abs(p));
  if (whole >= 1) return whole;
  return Math.round(Math.abs(p) * 10) / 10;
}

/** "42 %", "0.4 %"; "—" when there is no figure. */
export function percentText(p: number | null | undefined): string {
  if (!isFigure(p)) return NO_FIGURE;
  const size = percentDigits(p);
  return `${p < 0 && size > 0 ? MINUS : ''}${size} %`;
}

/** `+13 %`, `−40 %`, `no change`; docs/api.md §10: changes are percentages (-42.5 means −42.5 %). */
export function signedPercentText(p: number | null | undefined): string {
  if (!isFigure(p)) return 'no earlier figure';
  const size = percentDigits(p);
  if (size === 0) return 'no change';
  return `${p > 0 ? '+' : MINUS}${size} %`;
}

/** The change from `before` to `now` in percent; null when `before` is zero or missing. */
export function percentChange(
  before: number | null | undefined,
  now: number | null | undefined,
): number | null {
  if (!isFigure(before) || !isFigure(now) || before === 0) return null;
  return ((now - before) / Math.abs(before)) * 100;
}

/**
 * The whole percent of a quota used (AI Pages `percentage_used`, the daily API count).
 * Rounded down, unlike other percentages, because the alerts fire when the figure reaches
 * a level: 79.6 % reads "79 %", not an "80 %" that raised no 80 % alert.
 */
export function usagePercent(p: number | null | undefined): number {
  if (!isFigure(p)) return 0;
  return Math.max(0, Math.floor(p));
}

/** `usagePercent` as text: "79 %". */
export function usagePercentText(p: number | null | undefined): string {
  return `${usagePercent(p)} %`;
}

const BYTE_UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** "850 bytes", "12.4 MB", "1.2 GB" (1 KB = 1,024 bytes, as disks and databases count); "—" when unknown. */
export function bytesText(n: number | null | undefined): string {
  if (!isFigure(n) || n < 0) return NO_FIGURE;
  let size = n;
  let unit = 0;
  while (size >= 1024 && unit < BYTE_UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return `${countText(unit === 0 ? size : Math.round(size * 10) / 10)} ${BYTE_UNITS[unit]}`;
}
