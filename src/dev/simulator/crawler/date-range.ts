/**
 * The crawler endpoints' shared date model (docs/api.md §4.9): a preset, or `custom` with
 * both `start_date` and `end_date`.
 */
import { dateOfDay } from '../../../utc-days.js';
import { parseDay } from '../dates.js';
import { invalidParam } from '../http-error.js';
import { enumParam, type RequestInput, stringParam } from '../params.js';

const RANGE_PRESETS = ['24h', '7d', '30d', '90d', 'custom'] as const;
type RangePreset = (typeof RANGE_PRESETS)[number];

const PRESET_DAYS: Record<Exclude<RangePreset, 'custom'>, number> = {
  '24h': 1,
  '7d': 7,
  '30d': 30,
  '90d': 90,
};
const MAX_CUSTOM_DAYS = 366;

interface DayRange {
  readonly preset: RangePreset;
  readonly startDay: number;
  readonly endDay: number;
  readonly days: number;
}

export function parseDateRange(input: RequestInput, today: number, fallback: RangePreset = '30d'): DayRange {
  const preset = enumParam(input, 'range_preset', RANGE_PRESETS, fallback);
  if (preset !== 'custom') {
    const days = PRESET_DAYS[preset];
    return { preset, startDay: today - days + 1, endDay: today, days };
  }
  const startText = stringParam(input, 'start_date');
  const endText = stringParam(input, 'end_date');
  if (!startText) throw invalidParam('start_date', 'is required when range_preset is custom');
  if (!endText) throw invalidParam('end_date', 'is required when range_preset is custom');
  const startDay = parseDay(startText);
  const endDay = parseDay(endText);
  if (startDay === null) throw invalidParam('start_date', 'must be a date in YYYY-MM-DD format');
  if (endDay === null) throw invalidParam('end_date', 'must be a date in YYYY-MM-DD format');
  if (startDay > endDay) throw invalidParam('start_date', 'must not be after end_date');
  if (endDay - startDay + 1 > MAX_CUSTOM_DAYS)
    throw invalidParam('end_date', `range must not exceed ${MAX_CUSTOM_DAYS} days`);
  return { preset, startDay, endDay, days: endDay - startDay + 1 };
}

export function rangeJson(range: DayRange, compareTo?: string) {
  return {
    range_preset: range.preset,
    start: dateOfDay(range.startDay),
    end: dateOfDay(range.endDay),
    days: range.days,
    ...(compareTo === undefined ? {} : { compare_to: compareTo }),
  };
}
