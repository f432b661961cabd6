/**
 * `npm run bench -- alert-quality`: how well the crawler alert rules find real falls, on
 * simulated brands whose truth is known. Each brand has 20 weeks of daily AI crawler visits
 * (a level, weekly seasonality, day-to-day and week-to-week noise, counting noise); some
 * have a real fall of 20–60 % for two to four weeks. Every day from week 6 on, the crawler
 * job's decision is replayed with each rule (the same pure functions the job calls, with
 * the history the bot would have stored), and each fall alert is scored:
 * - a true alert judges a week that overlaps a real fall, a false one a week that does not;
 * - a fall is found when a true alert comes within 14 days of its start.
 * Precision = true alerts / all alerts; recall = falls found / falls. Deterministic: the
 * same seed gives the same table on any machine.
 */
import { DEFAULT_ALERT_SETTINGS } from '../src/alerts/alert-settings.js';
import type { DailyVisits } from '../src/alerts/crawler-normal-range.js';
import type { CrawlerPeriods, CrawlerState, PeriodCounts } from '../src/alerts/detect-crawler.js';
import { detectCrawlerVisits } from '../src/alerts/detect-crawler-range.js';
import { createRandom, type Random } from '../src/dev/simulator/random.js';
import { percentText } from '../src/figures/number-text.js';
import { dateOfDay, dayNumber } from '../src/utc-days.js';
import { gauss, poisson } from './lib/random-counts.js';
import { modelDropoutScore } from './model-quality.js';

const SEED = 'alert-quality-v1';
const DAYS = 140;
const FIRST_JUDGED = 35;
const FOUND_WITHIN = 14;
const START = dayNumber('2026-06-01');

interface Site {
  /** Visits on a usual weekday. */
  level: number;
  /** How far weekends run below weekdays (0.45 = 45 % lower). */
  weekendDip: number;
  /** Day-to-day noise (standard deviation, as a share). */
  dailyNoise: number;
  /** Week-to-week swings (standard deviation, as a share). */
  weeklyNoise: number;
}

interface Fall {
  start: number;
  end: number;
  /** Share of visits lost, 0.2–0.6. */
  size: number;
}

interface Scenario {
  name: string;
  site: (r: Random) => Site;
  fall: (r: Random) => Fall | null;
}

const between = (r: Random, lo: number, hi: number) => lo + (hi - lo) * r.next();
const someFall = (lo: number, hi: number) => (r: Random) => {
  const start = r.int(FIRST_JUDGED + 14, DAYS - 35);
  return { start, end: start + r.int(14, 28), size: between(r, lo, hi) };
};
const noFall = () => null;
const seasonal = (r: Random): Site => ({
  level: between(r, 400, 3000),
  weekendDip: between(r, 0.3, 0.5),
  dailyNoise: 0.04,
  weeklyNoise: 0.03,
});
const noisy = (r: Random): Site => ({
  level: between(r, 200, 2000),
  weekendDip: between(r, 0, 0.4),
  dailyNoise: 0.2,
  weeklyNoise: 0.15,
});
const small = (r: Random): Site => ({
  level: between(r, 5, 25),
  weekendDip: between(r, 0, 0.3),
  dailyNoise: 0.1,
  weeklyNoise: 0.05,
});
const steady = (r: Random): Site => ({ ...seasonal(r), weekendDip: 0, dailyNoise: 0.02, weeklyNoise: 0.015 });

/** The crawler scenarios; a blocked crawler loses its share of all visits (20–45 %). */
const SCENARIOS: readonly Scenario[] = [
  { name: 'weekly seasonality, no fall', site: seasonal, fall: noFall },
  { name: 'weekly seasonality, fall 20–30 %', site: seasonal, fall: someFall(0.2, 0.3) },
  { name: 'weekly seasonality, fall 30–45 %', site: seasonal, fall: someFall(0.3, 0.45) },
  { name: 'weekly seasonality, fall 45–60 %', site: seasonal, fall: someFall(0.45, 0.6) },
  { name: 'quiet steady site, no fall', site: steady, fall: noFall },
  { name: 'quiet steady site, fall 20–60 %', site: steady, fall: someFall(0.2, 0.6) },
  { name: 'noisy site, no fall', site: noisy, fall: noFall },
  { name: 'noisy site, fall 20–60 %', site: noisy, fall: someFall(0.2, 0.6) },
  { name: 'small site (5–25 a day), no fall', site: small, fall: noFall },
  { name: 'small site (5–25 a day), fall 20–60 %', site: small, fall: someFall(0.2, 0.6) },
  { name: 'blocked crawler (its share, 20–45 %)', site: seasonal, fall: someFall(0.2, 0.45) },
];

/**
 * Scenarios judged by rules this branch does not have: the citation rule for a model that
 * stops citing the brand, and an access rule for a blocked crawler. A rule registered here
 * gets its own row; until then the row says so.
 */

function visitsOf(site: Site, fall: Fall | null, r: Random): number[] {
  const out: number[] = [];
  let week = 1;
  for (let d = 0; d < DAYS; d++) {
    if (d % 7 === 0) week = Math.max(0.2, 1 + site.weeklyNoise * gauss(r));
    const weekday = (START + d + 4) % 7;
    const weekend = weekday === 0 || weekday === 6 ? 1 - site.weekendDip : 1;
    const daily = Math.max(0.1, 1 + site.dailyNoise * gauss(r));
    const fell = fall && d >= fall.start && d < fall.end ? 1 - fall.size : 1;
    out.push(poisson(r, site.level * weekend * week * daily * fell));
  }
  return out;
}

interface Score {
  alerts: number;
  trueAlerts: number;
  falls: number;
  found: number;
  /** Recovery notices while the week judged was wholly inside a fall. */
  earlyRecoveries: number;
}

const noScore = (): Score => ({ alerts: 0, trueAlerts: 0, falls: 0, found: 0, earlyRecoveries: 0 });

function period(visits: readonly number[], last: number): PeriodCounts {
  const total = visits.slice(last - 6, last + 1).reduce((a, b) => a + b, 0);
  return {
    start: dateOfDay(START + last - 6),
    end: dateOfDay(START + last),
    total,
    byCrawler: { AnyBot: total },
  };
}

/** Replays the job day by day with one rule; returns that rule's score for this brand. */
function replay(visits: readonly number[], fall: Fall | null, rule: 'range' | 'threshold'): Score {
  const score = noScore();
  const settings = { ...DEFAULT_ALERT_SETTINGS, crawlerAlerts: rule };
  let state: CrawlerState | null = null;
  let foundAt: number | null = null;
  const history: Record<string, number> = {};
  for (let d = 0; d < DAYS; d++) {
    history[dateOfDay(START + d)] = visits[d]!;
    if (d < FIRST_JUDGED) continue;
    const periods: CrawlerPeriods = { current: period(visits, d), previous: period(visits, d - 7) };
    const r = detectCrawlerVisits(state, { periods, history: history as DailyVisits }, settings, BRAND, 0);
    state = r.next;
    const overlaps = fall !== null && d >= fall.start && d - 6 < fall.end;
    for (const a of r.alerts) {
      if (a.kind === 'crawler_recovered' && fall && d - 6 >= fall.start && d < fall.end)
        score.earlyRecoveries++;
      if (a.kind !== 'crawler_drop') continue;
      score.alerts++;
      if (overlaps) score.trueAlerts++;
      if (overlaps && foundAt === null && d < fall!.start + FOUND_WITHIN) foundAt = d;
    }
  }
  if (fall) {
    score.falls = 1;
    score.found = foundAt === null ? 0 : 1;
  }
  return score;
}

const BRAND = { id: 'bench-brand', name: 'Bench brand' };

function add(a: Score, b: Score): Score {
  return {
    alerts: a.alerts + b.alerts,
    trueAlerts: a.trueAlerts + b.trueAlerts,
    falls: a.falls + b.falls,
    found: a.found + b.found,
    earlyRecoveries: a.earlyRecoveries + b.earlyRecoveries,
  };
}

const pct = (n: number, d: number) => (d === 0 ? '—' : percentText((n / d) * 100));

function cells(s: Score): string {
  const precision = s.alerts === 0 ? '— (no alerts)' : pct(s.trueAlerts, s.alerts);
  const recall = s.falls === 0 ? '— (no falls)' : pct(s.found, s.falls);
  return `${String(s.alerts).padStart(5)} alerts  precision ${precision.padEnd(13)} recall ${recall.padEnd(12)} early recoveries ${s.earlyRecoveries}`;
}

export async function runAlertQualityBench({ quick }: { quick: boolean }): Promise<string[]> {
  const brands = quick ? 40 : 100;
  const lines = [
    `${brands} simulated brands per scenario, ${DAYS} days each, judged daily from day ${FIRST_JUDGED}; seed "${SEED}".`,
    'A fall is found when a true alert comes within 14 days of its start.',
  ];
  const total = { range: noScore(), threshold: noScore() };
  for (const scenario of SCENARIOS) {
    const sum = { range: noScore(), threshold: noScore() };
    for (let b = 0; b < brands; b++) {
      const r = createRandom(`${SEED}:${scenario.name}:${b}`);
      const fall = scenario.fall(r);
      const visits = visitsOf(scenario.site(r), fall, r);
      for (const rule of ['range', 'threshold'] as const)
        sum[rule] = add(sum[rule], replay(visits, fall, rule));
    }
    lines.push('', scenario.name);
    lines.push(`  usual range      ${cells(sum.range)}`);
    lines.push(`  fixed −40 %      ${cells(sum.threshold)}`);
    total.range = add(total.range, sum.range);
    total.threshold = add(total.threshold, sum.threshold);
  }
  lines.push('', 'all crawler scenarios');
  lines.push(`  usual range      ${cells(total.range)}`);
  lines.push(`  fixed −40 %      ${cells(total.threshold)}`);
  const models = modelDropoutScore(SEED, brands);
  const recall = models.drops === 0 ? '—' : pct(models.found, models.drops);
  lines.push(
    '',
    `one AI model drops out for 3–20 days (${2 * brands} brands, half with a drop-out; found within 4 days)`,
    `  model stopped    ${String(models.alerts).padStart(5)} alerts  precision ${pct(models.trueAlerts, models.alerts).padEnd(13)} recall ${recall}`,
    '',
    'a blocked crawler is the scenario above; when the access check names the block, the fall is folded under it (one message, not a detection rule)',
  );
  return lines;
}
