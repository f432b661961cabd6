import type { DateRangeParams } from '../../../api/visibility-api.js';

/** The range as the word people type (`7d`, `2025-01-01..2025-01-31`), for re-runnable command text. */
export function rangeWord(range: DateRangeParams | undefined): string[] {
  if (!range?.rangePreset) return [];
  return range.rangePreset === 'custom' ? [`${range.startDate}..${range.endDate}`] : [range.rangePreset];
}
