/**
 * The figures alt text states for a day series: first and latest value with their days,
 * the low and the high. One wording for every chart, built from the shared number
 * formatter so a figure reads the same in the alt text as in the message beside it.
 */

import { shortDayText } from '../figures/day-text.js';
import { countText } from '../figures/number-text.js';
import { dayNumber } from '../utc-days.js';

export interface DayValue {
  /** `YYYY-MM-DD` */
  date: string;
  value: number;
}

/** Oldest first, non-finite values dropped (a gap, not a zero). */
export function sortedDays<T extends { date: string }>(points: readonly T[]): T[] {
  return [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export function finiteDays(points: readonly DayValue[]): DayValue[] {
  return sortedDays(points.filter((p) => Number.isFinite(p.value)));
}

/** "24 on 1 Nov to 23 on 14 Nov, low 20, high 26"; "no data" for an empty series. */
export function describeSeries(points: readonly DayValue[]): string {
  const days = finiteDays(points);
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return 'no data';
  if (days.length === 1) return `${countText(first.value)} on ${shortDayText(first.date)}`;
  const values = days.map((d) => d.value);
  return (
    `${countText(first.value)} on ${shortDayText(first.date)} to ${countText(last.value)} on ${shortDayText(last.date)}, ` +
    `low ${countText(Math.min(...values))}, high ${countText(Math.max(...values))}`
  );
}

/** "30 → 28" (first and latest), for the secondary series of a chart. */
export function describeChange(points: readonly DayValue[]): string {
  const days = finiteDays(points);
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return 'no data';
  return days.length === 1 ? countText(first.value) : `${countText(first.value)} → ${countText(last.value)}`;
}

/** Whole days from the first to the last date, both included; 0 without dates. */
export function daySpan(dates: readonly string[]): number {
  if (dates.length === 0) return 0;
  const sorted = [...dates].sort();
  const days = dayNumber(sorted.at(-1)!) - dayNumber(sorted[0]!);
  return Number.isNaN(days) ? dates.length : days + 1;
}
