/**
 * The date range people type after a crawler command: a preset (`24h`, `7d`, `30d`,
 * `90d`) or `YYYY-MM-DD..YYYY-MM-DD` (docs/api.md §4.9 `custom`). Anything else that looks like
 * a range (`14d`, `2025-01-01..`) is an error with the accepted forms, never ignored.
 */
import type { DateRangeParams } from '../../../api/visibility-api.js';
import { isCalendarDate } from '../../../utc-days.js';

export const RANGE_PRESETS = ['24h', '7d', '30d', '90d'] as const;
const CUSTOM = /^(\d{4}-\d{2}-\d{2})\.{2,3}(\d{4}-\d{2}-\d{2})$/;

const RANGE_HELP = 'Use 24h, 7d, 30d, 90d or a date range such as 2025-01-01..2025-01-31.';

/** A token that is a valid range (safe to read even where a brand name could stand). */
export function isRangeToken(token: string): boolean {
  return (RANGE_PRESETS as readonly string[]).includes(token.toLowerCase()) || CUSTOM.test(token);
}

/** A token that is meant as a range, valid or not (`14d`, `1w`, `2025-01-01..x`). */
export function looksLikeRange(token: string): boolean {
  return (
    isRangeToken(token) ||
    token.includes('..') ||
    /^\d{4}-\d{2}-\d{2}/.test(token) ||
    /^\d+\s?(h|d|w|m|y|hrs?|hours?|days?|weeks?|months?|years?)$/i.test(token)
  );
}

type RangeResult = { ok: true; range: DateRangeParams } | { ok: false; message: string };

export function parseRange(token: string): RangeResult {
  const preset = token.toLowerCase();
  if ((RANGE_PRESETS as readonly string[]).includes(preset)) {
    return { ok: true, range: { rangePreset: preset as (typeof RANGE_PRESETS)[number] } };
  }
  const m = CUSTOM.exec(token);
  if (m) {
    const [, start, end] = m as unknown as [string, string, string];
    if (!isCalendarDate(start) || !isCalendarDate(end))
      return { ok: false, message: `“${token}” has a date that does not exist. ${RANGE_HELP}` };
    if (start > end) return { ok: false, message: `The range starts (${start}) after it ends (${end}).` };
    return { ok: true, range: { rangePreset: 'custom', startDate: start, endDate: end } };
  }
  return { ok: false, message: `“${token.slice(0, 40)}” is not a range. ${RANGE_HELP}` };
}

/** The range as the word people type (`7d`, `2025-01-01..2025-01-31`), for re-runnable command text. */
export function rangeWord(range: DateRangeParams | undefined): string[] {
  if (!range?.rangePreset) return [];
  return range.rangePreset === 'custom' ? [`${range.startDate}..${range.endDate}`] : [range.rangePreset];
}
