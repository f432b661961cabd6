/**
 * When AI Pages usage will reach 100 % at its current pace, compared with the reset date.
 *
 * Two readings of "the pace": `forecastUsage` draws a straight line through the billing
 * period's usage samples, an hour apart or more, so the poller can ask a brand again just
 * before it crosses its next threshold. `usageOutlook` is what an alert says: the pace of
 * samples at least a day apart when the bot has them, else the period's pace so far (the
 * count was 0 when the period began, a month before the reset, as the usage chart draws it),
 * and when neither can be told, why not. Pure.
 */

import { dayText } from '../figures/day-text.js';
import { usagePercentText } from '../figures/number-text.js';
import { counted } from '../figures/plural.js';
import { DAY_MS } from '../utc-days.js';

export interface UsageSample {
  atMs: number;
  /** percentage_used, 0–100 */
  percentage: number;
  /** The billing period (normalised reset date) the sample belongs to. */
  period: string;
}

export interface UsageForecast {
  /** Percentage points per day at the current pace. */
  perDay: number;
  /** When 100 % is reached at that pace (epoch ms). */
  fullAtMs: number;
  /** Whole days between that moment and the reset; > 0 (otherwise there is no forecast). */
  daysBeforeReset: number;
}

/** Samples kept per brand: enough for a pace, small enough to store with every poll. */
const MAX_SAMPLES = 12;

/** The billing period a reset date names, as the samples store it (an ISO instant). */
function periodOf(resetDate: string): string {
  const t = Date.parse(resetDate);
  return Number.isNaN(t) ? resetDate : new Date(t).toISOString();
}

/**
 * The samples after a reading of usage at `nowMs`: this one added, other billing periods
 * dropped, the newest kept. The AI Pages job stores them with each poll; `aipages` adds
 * the reading it shows to the stored ones, so its chart reads the pace an alert states.
 */
export function withReading(
  samples: readonly UsageSample[],
  usage: { percentage_used: number; reset_date: string },
  nowMs: number,
): UsageSample[] {
  const sample: UsageSample = {
    atMs: nowMs,
    percentage: usage.percentage_used,
    period: periodOf(usage.reset_date),
  };
  return [...samples.filter((s) => s.period === sample.period), sample].slice(-MAX_SAMPLES);
}

/** Samples this far apart or more give a pace; closer ones are noise. */
const MIN_SPAN_MS = 3_600_000;

/** Forecast from `samples` (any order); null when usage is not growing or resets first. */
export function forecastUsage(samples: readonly UsageSample[]): UsageForecast | null {
  if (samples.length < 2) return null;
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const last = sorted.at(-1)!;
  const inPeriod = sorted.filter((s) => s.period === last.period);
  const first = inPeriod[0]!;
  if (last.atMs - first.atMs < MIN_SPAN_MS) return null;
  const perMs = (last.percentage - first.percentage) / (last.atMs - first.atMs);
  if (!(perMs > 0)) return null;
  const resetAtMs = Date.parse(last.period);
  if (Number.isNaN(resetAtMs)) return null;
  const fullAtMs = last.atMs + Math.max(0, 100 - last.percentage) / perMs;
  const daysBeforeReset = Math.floor((resetAtMs - fullAtMs) / DAY_MS);
  if (fullAtMs >= resetAtMs) return null;
  return { perDay: perMs * DAY_MS, fullAtMs, daysBeforeReset };
}

/** When usage reaches `level` % at the forecast's pace (epoch ms); now when it already has. */
export function reachesLevelAt(
  last: UsageSample,
  forecast: Pick<UsageForecast, 'perDay'>,
  level: number,
): number {
  if (last.percentage >= level) return last.atMs;
  return last.atMs + ((level - last.percentage) / forecast.perDay) * DAY_MS;
}

/** The UTC day of `ms` in the one date style ("Dec 14, 2026"). */
const dayOf = (ms: number) => dayText(new Date(ms).toISOString());

/** "At this pace 100 % on Dec 14, 2026, 6 days before the reset." */
export function forecastSentence(f: UsageForecast): string {
  const date = dayOf(f.fullAtMs);
  const days =
    f.daysBeforeReset < 1
      ? 'less than a day before the reset'
      : `${counted(f.daysBeforeReset, 'day')} before the reset`;
  return `At this pace 100 % on ${date}, ${days}.`;
}

/** What an alert says about where usage is heading; every case has a sentence. */
export type UsageOutlook =
  /** 100 % before the reset, at this pace. */
  | { kind: 'full'; forecast: UsageForecast }
  /** Still under 100 % at the reset, at this pace (also when usage is not growing). */
  | { kind: 'lasts'; percentAtReset: number; resetAtMs: number }
  /** 100 % already. */
  | { kind: 'reached'; daysBeforeReset: number }
  /**
   * No pace yet: the period began less than a day ago (`too_early`), or the reset date
   * does not tell when it began and the samples are less than a day apart (`few_readings`).
   */
  | { kind: 'unknown'; reason: 'too_early' | 'few_readings' };

/** The same instant a calendar month earlier (the 31st of a shorter month becomes its last day). */
export function monthBeforeMs(ms: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Date.UTC(y, m - 1, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes());
}

/** Percentage points per ms, or why there is no pace. */
function paceOf(
  samples: readonly UsageSample[],
  last: UsageSample,
  resetAtMs: number,
): number | UsageOutlook {
  const first = samples.find((s) => s.period === last.period)!;
  if (last.atMs - first.atMs >= DAY_MS)
    return (last.percentage - first.percentage) / (last.atMs - first.atMs);
  const startMs = monthBeforeMs(resetAtMs);
  const elapsed = last.atMs - startMs;
  // A reset date more than a month ahead (or passed) names no period start we can trust.
  if (elapsed < 0 || last.atMs >= resetAtMs) return { kind: 'unknown', reason: 'few_readings' };
  if (elapsed < DAY_MS) return { kind: 'unknown', reason: 'too_early' };
  return last.percentage / elapsed;
}

/** Where usage is heading at its pace, from `samples` (any order; the newest names the period). */
export function usageOutlook(samples: readonly UsageSample[]): UsageOutlook | null {
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const last = sorted.at(-1);
  if (!last) return null;
  const resetAtMs = Date.parse(last.period);
  if (Number.isNaN(resetAtMs)) return { kind: 'unknown', reason: 'few_readings' };
  const daysLeft = Math.max(0, Math.floor((resetAtMs - last.atMs) / DAY_MS));
  if (last.percentage >= 100) return { kind: 'reached', daysBeforeReset: daysLeft };
  const pace = paceOf(sorted, last, resetAtMs);
  if (typeof pace !== 'number') return pace;
  const fullAtMs = pace > 0 ? last.atMs + (100 - last.percentage) / pace : Number.POSITIVE_INFINITY;
  if (fullAtMs < resetAtMs)
    return {
      kind: 'full',
      forecast: {
        perDay: pace * DAY_MS,
        fullAtMs,
        daysBeforeReset: Math.floor((resetAtMs - fullAtMs) / DAY_MS),
      },
    };
  return { kind: 'lasts', percentAtReset: Math.min(99, projected(last, pace, resetAtMs)), resetAtMs };
}

/** Usage at `atMs` (later than the last sample) at `pace`, never below the last reading. */
const projected = (last: UsageSample, pace: number, atMs: number) =>
  last.percentage + Math.max(0, pace) * Math.max(0, atMs - last.atMs);

/**
 * Usage at the period's reset at the pace an alert states (`usageOutlook`'s), not capped
 * at 100: what the usage chart draws its dashed line to. Null when no pace can be told.
 */
export function percentAtReset(samples: readonly UsageSample[]): number | null {
  const sorted = [...samples].sort((a, b) => a.atMs - b.atMs);
  const last = sorted.at(-1);
  const resetAtMs = last ? Date.parse(last.period) : Number.NaN;
  if (!last || Number.isNaN(resetAtMs) || last.atMs >= resetAtMs) return null;
  const pace = paceOf(sorted, last, resetAtMs);
  return typeof pace === 'number' ? projected(last, pace, resetAtMs) : null;
}

/** The outlook as the sentence an alert ends with. */
export function outlookSentence(o: UsageOutlook): string {
  switch (o.kind) {
    case 'full':
      return forecastSentence(o.forecast);
    case 'lasts':
      return `At this pace about ${usagePercentText(o.percentAtReset)} by the reset on ${dayOf(o.resetAtMs)}, under the limit.`;
    case 'reached':
      return o.daysBeforeReset < 1
        ? 'Reached less than a day before the reset.'
        : `Reached ${counted(o.daysBeforeReset, 'day')} before the reset.`;
    case 'unknown':
      return o.reason === 'too_early'
        ? 'No forecast yet: this billing period began less than a day ago, too soon to tell a pace.'
        : 'No forecast yet: the pace needs usage readings at least a day apart, and the bot has only just started reading them.';
  }
}
