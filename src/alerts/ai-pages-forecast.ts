/**
 * When AI Pages usage will reach 100 % at its current pace: a straight line through the
 * billing period's usage samples (oldest to newest), compared with the reset date. Used
 * to say so in the alert ("at this pace 100 % on 14 Dec, 6 days before the reset") and to
 * poll a brand more often while it nears its next threshold. Pure.
 */

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

/** "At this pace 100 % on 14 Dec, 6 days before the reset." */
export function forecastSentence(f: UsageForecast): string {
  const date = new Date(f.fullAtMs).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  const days =
    f.daysBeforeReset < 1
      ? 'less than a day before the reset'
      : `${counted(f.daysBeforeReset, 'day')} before the reset`;
  return `At this pace 100 % on ${date}, ${days}.`;
}
