/**
 * A brand's usual AI crawler visits for the last 7 whole days, learned from its own daily
 * history, and how far the real week is from it. Pure arithmetic, no I/O.
 *
 * The week is compared with earlier whole weeks aligned on the same weekdays, so a site
 * whose weekends always run lower is compared weekend with weekend. With three such weeks
 * the expectation is built weekday by weekday (the median of each weekday, so one odd day
 * does not move it); with two, a plain recent baseline (the mean of those weeks). The range
 * is how far each earlier week strayed from what the other weeks predicted (leave one out),
 * widened to at least the counting noise of the week's size, so a quiet site that varies by
 * ±3 % alerts at −30 % while a noisy one does not alert on its usual swings.
 */
import { dateOfDay, dayNumber } from '../utc-days.js';

/** Visits per UTC day, `YYYY-MM-DD` → count; a day that is absent is unknown, not zero. */
export type DailyVisits = Readonly<Record<string, number>>;

/** Earlier weeks the expectation looks back on. */
const RANGE_LOOKBACK_WEEKS = 8;
/** Whole earlier weeks for the per-weekday expectation. */
const WEEKDAY_BASIS_WEEKS = 3;
/** Whole earlier weeks for any range at all (the plain recent baseline). */
const MIN_RANGE_WEEKS = 2;
/** Days of history (this week included) the range needs: the week and two before it. */
export const MIN_RANGE_HISTORY_DAYS = 7 * (MIN_RANGE_WEEKS + 1);

/**
 * How many spreads either side of the centre still count as usual: 3, and more while few
 * weeks are known, because a spread learned from two or three weeks is often too small.
 */
const spreads = (weeks: number) => 3 + Math.max(0, 6 - weeks) * 0.5;
/**
 * The spread is never taken below a third of 10 %, so the range is at least ±10 %: a week a
 * few percent down is within any site's ordinary wobble (the bench's steady sites raised
 * false alerts at −7 % with a narrower floor) and is not worth a marketer's attention.
 */
const MIN_SPREAD = 0.1 / 3;

export type RangeBasis = 'weekday' | 'recent';

export interface NormalRange {
  basis: RangeBasis;
  /** Whole earlier weeks the expectation and the range were learned from. */
  weeks: number;
  /** The 7 days judged, inclusive. */
  start: string;
  end: string;
  actual: number;
  expected: number;
  /** actual vs expected, in % (−35 = 35 % fewer visits than usual). */
  changePct: number;
  /** The usual range of that change, in %. */
  lowPct: number;
  highPct: number;
}

interface RangeInput {
  history: DailyVisits;
  /** The last day of the week judged (yesterday, UTC). */
  endDate: string;
  /**
   * Days from here on are not learned from: the days of a fall already reported, so a fall
   * that lasts does not become the new usual and "recover" on its own.
   */
  learnBefore?: string | null;
}

interface RangeAnswer {
  /** Days from the first day with visits to `endDate`, inclusive (0 without visits). */
  historyDays: number;
  range: NormalRange | null;
}

function knownDays(history: DailyVisits): Map<number, number> {
  const days = new Map<number, number>();
  for (const [date, n] of Object.entries(history)) {
    const d = dayNumber(date);
    if (!Number.isNaN(d) && Number.isFinite(n) && n >= 0) days.set(d, (days.get(d) ?? 0) + n);
  }
  return days;
}

function firstVisitDay(days: Map<number, number>, end: number): number | null {
  let first: number | null = null;
  for (const [d, n] of days) if (n > 0 && d <= end && (first === null || d < first)) first = d;
  return first;
}

/** Seven counts from `start`, or null when a day is unknown or before the first visit. */
function weekAt(days: Map<number, number>, start: number, first: number): number[] | null {
  if (start < first) return null;
  const week: number[] = [];
  for (let i = 0; i < 7; i++) {
    const n = days.get(start + i);
    if (n === undefined) return null;
    week.push(n);
  }
  return week;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** What `weeks` predict for a week: weekday medians with three or more, else the mean. */
function expectedWeek(weeks: readonly (readonly number[])[]): number {
  if (weeks.length >= WEEKDAY_BASIS_WEEKS) {
    return sum(Array.from({ length: 7 }, (_, i) => median(weeks.map((w) => w[i]!))));
  }
  return sum(weeks.map(sum)) / weeks.length;
}

/** The earlier whole weeks, newest first, aligned on the week judged and before `learnBefore`. */
function earlierWeeks(days: Map<number, number>, start: number, first: number, learnBefore: number | null) {
  const weeks: number[][] = [];
  for (let k = 1; weeks.length < RANGE_LOOKBACK_WEEKS && start - 7 * k >= first; k++) {
    const s = start - 7 * k;
    if (learnBefore !== null && s + 6 >= learnBefore) continue;
    const week = weekAt(days, s, first);
    if (week) weeks.push(week);
  }
  return weeks;
}

function spreadOf(weeks: readonly (readonly number[])[]): { centre: number; spread: number } {
  const devs = weeks.map((w, j) => {
    const expected = expectedWeek(weeks.filter((_, i) => i !== j));
    return expected > 0 ? sum(w) / expected - 1 : 0;
  });
  const centre = sum(devs) / devs.length;
  const variance = sum(devs.map((d) => (d - centre) ** 2)) / Math.max(1, devs.length - 1);
  return { centre, spread: Math.sqrt(variance) };
}

/** The usual range for the 7 days ending `endDate`, or null when history is too short. */
export function normalRange(input: RangeInput): RangeAnswer {
  const end = dayNumber(input.endDate);
  if (Number.isNaN(end)) throw new RangeError(`endDate must be YYYY-MM-DD, got "${input.endDate}"`);
  const days = knownDays(input.history);
  const first = firstVisitDay(days, end);
  if (first === null) return { historyDays: 0, range: null };
  const historyDays = end - first + 1;
  const start = end - 6;
  const current = weekAt(days, start, Math.min(first, start));
  const learnBefore = input.learnBefore ? dayNumber(input.learnBefore) : null;
  const weeks = earlierWeeks(days, start, first, Number.isNaN(learnBefore) ? null : learnBefore);
  if (!current || weeks.length < MIN_RANGE_WEEKS) return { historyDays, range: null };

  const expected = expectedWeek(weeks);
  if (expected <= 0) return { historyDays, range: null };
  const actual = sum(current);
  const { centre, spread } = spreadOf(weeks);
  // Counting noise: a week expected to hold E visits varies by about √E on its own.
  const s = Math.max(spread, 1 / Math.sqrt(expected), MIN_SPREAD);
  return {
    historyDays,
    range: {
      basis: weeks.length >= WEEKDAY_BASIS_WEEKS ? 'weekday' : 'recent',
      weeks: weeks.length,
      start: dateOfDay(start),
      end: dateOfDay(end),
      actual,
      expected,
      changePct: (actual / expected - 1) * 100,
      lowPct: Math.max(-100, (centre - spreads(weeks.length) * s) * 100),
      highPct: (centre + spreads(weeks.length) * s) * 100,
    },
  };
}
