/**
 * How often to poll each brand so the bot never spends more than 80 % of the key's daily
 * quota (docs/api.md §8: "the bot never makes their API key hit a rate limit"). The other 20 %
 * is headroom for people using /visibility and for retries.
 *
 * Polls follow the rhythm of the data, so no call buys nothing:
 * - citation data changes once a day, with the service's research run: one poll a day,
 *   just after the run's time of day as the feed's event times show it (data-rhythm.ts);
 * - the crawler job reads whole days ending yesterday: one poll a day, just after UTC
 *   midnight;
 * - AI Pages usage grows continuously but alerts only at thresholds: once a day, and every
 *   AI_PAGES_RUN_HOURS, at the runs around the time its pace says it reaches its next
 *   threshold (src/jobs/ai-pages-job.ts): NEAR_THRESHOLD_SHARE of brands are assumed to
 *   have such a crossing ahead on any day, at NEAR_THRESHOLD_EXTRA_POLLS extra calls each;
 * - the digest fetches the content ideas and its chart's citation history, and reuses
 *   what the polls saw for the rest;
 * - a brand with AI model alerts on (`model-alerts=on`) costs one more call per citations
 *   poll: the citation list, to count cited pages per AI model (MODEL_LIST_CALLS_PER_POLL);
 * - the "why it changed" lines look things up for the alerts of a run, at most
 *   WHY_CALLS_PER_CITATIONS_RUN calls per citations run and WHY_CALLS_PER_CRAWLER_RUN per
 *   crawler run across all brands: a fixed cost per day, whatever the number of brands.
 * At these defaults a brand costs about 5.2 calls a day and one Scale key (10,000/day,
 * 80 % for the scheduler) watches about 1,500 brands. When the brands do not fit,
 * intervals are stretched, always the most expensive one first, up to 24 h each.
 * Pure: the scheduler calls it with the current subscription count and plan.
 */

import { countText } from '../figures/number-text.js';

export interface PollIntervals {
  citationsHours: number;
  crawlerHours: number;
  aiPagesHours: number;
}

export const DEFAULT_POLL_INTERVALS: Readonly<PollIntervals> = {
  citationsHours: 24,
  crawlerHours: 24,
  aiPagesHours: 24,
};
export const MAX_POLL_INTERVALS: Readonly<PollIntervals> = {
  citationsHours: 24,
  crawlerHours: 24,
  aiPagesHours: 24,
};
/** Steps intervals stretch through; all divide a day, so polls land at the same hours daily. */
export const INTERVAL_STEPS_HOURS: readonly number[] = [1, 2, 3, 4, 6, 8, 12, 24];
/**
 * The digest's own calls: content ideas, and the citation history its chart draws (the
 * chart is on by default, so it is always counted: the plan never spends more than it
 * says). Feed, crawler and AI Pages come from the polls.
 */
export const DIGEST_CALLS_PER_BRAND = 2;
export const QUOTA_SHARE = 0.8;
/** How often the AI Pages job runs; a brand about to cross a threshold is asked at the run before and after. */
export const AI_PAGES_RUN_HOURS = 3;
/** Share of brands assumed to have an AI Pages threshold crossing ahead on any day. */
const NEAR_THRESHOLD_SHARE = 0.1;
/** Extra calls such a brand costs that day: the run before the forecast crossing, and the one after. */
const NEAR_THRESHOLD_EXTRA_POLLS = 2;

/**
 * The citation list read per citations poll for a brand with AI model alerts on. Brands
 * with more than 500 cited pages take one more page (MODEL_LIST_MAX_PAGES bounds it); the
 * plan counts the one page almost every brand needs.
 */
export const MODEL_LIST_CALLS_PER_POLL = 1;
/**
 * Why-lines of one citations run, across all its brands: the brand's website (to tell its
 * own pages), then crawler visits of an own page or the sources view of a third-party
 * domain, per lost page, until the bound is spent (later losses say nothing about why).
 */
export const WHY_CALLS_PER_CITATIONS_RUN = 10;
/**
 * Why-lines and causes of one crawler run, across all its brands: per crawler fall, the
 * access check and the pages of both periods (3 calls), until the bound is spent.
 */
export const WHY_CALLS_PER_CRAWLER_RUN = 9;

/** The why-lines' calls a day at these intervals: the per-run bounds times the runs. */
export function whyCallsPerDay(intervals: PollIntervals): number {
  return (
    WHY_CALLS_PER_CITATIONS_RUN * (24 / intervals.citationsHours) +
    WHY_CALLS_PER_CRAWLER_RUN * (24 / intervals.crawlerHours)
  );
}

interface CallsOptions {
  /** Count the daily digest's calls too (default true). */
  digest?: boolean;
}

/**
 * API calls one brand costs per day at these intervals (one call per poll per endpoint);
 * `modelShare` is the share of brands with AI model alerts on (0–1, default 0).
 */
export function callsPerBrandPerDay(
  intervals: PollIntervals,
  options: CallsOptions = {},
  modelShare = 0,
): number {
  const aiPages =
    24 / intervals.aiPagesHours +
    NEAR_THRESHOLD_SHARE *
      Math.min(
        NEAR_THRESHOLD_EXTRA_POLLS,
        Math.max(0, 24 / AI_PAGES_RUN_HOURS - 24 / intervals.aiPagesHours),
      );
  const citations = (24 / intervals.citationsHours) * (1 + modelShare * MODEL_LIST_CALLS_PER_POLL);
  const polls = citations + 24 / intervals.crawlerHours + aiPages;
  return polls + (options.digest === false ? 0 : DIGEST_CALLS_PER_BRAND);
}

interface PlanInput {
  /** Distinct subscribed brands (a brand watched by several channels is polled once). */
  brands: number;
  /** Of those, brands a subscription has AI model alerts on for (default 0). */
  modelBrands?: number;
  /** The plan's daily request limit; null = unlimited. */
  dailyLimit: number | null;
  desired?: PollIntervals;
  /** Share of the daily limit the scheduler may use; default 0.8. */
  share?: number;
}

export interface PollingPlan {
  intervals: PollIntervals;
  callsPerBrandPerDay: number;
  callsPerDay: number;
  /** The calls/day the plan allows the scheduler (share × limit); null = unlimited. */
  budgetPerDay: number | null;
  /** Whether any interval was stretched beyond the desired one. */
  stretched: boolean;
  fits: boolean;
  /** Brands the budget could watch at these intervals; null = unlimited. */
  maxBrands: number | null;
  /** Set when even the longest intervals do not fit; says what to do about it. */
  warning: string | null;
}

const FIELDS = ['citationsHours', 'crawlerHours', 'aiPagesHours'] as const;
type Field = (typeof FIELDS)[number];

function nextStep(hours: number, max: number): number | null {
  const next = INTERVAL_STEPS_HOURS.find((h) => h > hours);
  return next === undefined || next > max ? null : next;
}

const fmt = countText;

/**
 * Brands a daily budget covers at these intervals, after the why-lines' fixed calls, with
 * `modelShare` of them having AI model alerts on; null when the budget is unlimited.
 */
export function maxBrandsWithin(
  budgetPerDay: number | null,
  intervals: PollIntervals,
  modelShare = 0,
): number | null {
  if (budgetPerDay === null) return null;
  const left = Math.max(0, budgetPerDay - whyCallsPerDay(intervals));
  return Math.floor(left / callsPerBrandPerDay(intervals, {}, modelShare));
}

export function planPolling(input: PlanInput): PollingPlan {
  const desired = input.desired ?? DEFAULT_POLL_INTERVALS;
  const share = input.share ?? QUOTA_SHARE;
  const budget = input.dailyLimit === null ? null : Math.floor(input.dailyLimit * share);
  const brands = Math.max(0, input.brands);
  const modelShare = brands === 0 ? 0 : Math.min(1, Math.max(0, input.modelBrands ?? 0) / brands);
  const intervals: PollIntervals = { ...desired };
  const cost = () =>
    brands * callsPerBrandPerDay(intervals, {}, modelShare) + (brands > 0 ? whyCallsPerDay(intervals) : 0);

  if (budget !== null) {
    // Greedy: stretch whichever poll costs most calls per day right now (ties: crawler
    // before AI Pages before citations, the order in which freshness matters least).
    const order: Field[] = ['crawlerHours', 'aiPagesHours', 'citationsHours'];
    while (cost() > budget) {
      let pick: Field | null = null;
      for (const f of order) {
        if (nextStep(intervals[f], MAX_POLL_INTERVALS[f]) === null) continue;
        if (pick === null || 24 / intervals[f] > 24 / intervals[pick]) pick = f;
      }
      if (pick === null) break;
      intervals[pick] = nextStep(intervals[pick], MAX_POLL_INTERVALS[pick])!;
    }
  }

  const perBrand = callsPerBrandPerDay(intervals, {}, modelShare);
  const callsPerDay = cost();
  const fits = budget === null || callsPerDay <= budget;
  const longest = maxBrandsWithin(budget, MAX_POLL_INTERVALS, modelShare);
  return {
    intervals,
    callsPerBrandPerDay: perBrand,
    callsPerDay,
    budgetPerDay: budget,
    stretched: FIELDS.some((f) => intervals[f] !== desired[f]),
    fits,
    maxBrands: maxBrandsWithin(budget, intervals, modelShare),
    warning: fits
      ? null
      : `${fmt(brands)} brands need ${fmt(callsPerDay)} API calls a day even when polled only once a day, ` +
        `more than the ${fmt(budget!)} (${Math.round(share * 100)} % of ${fmt(input.dailyLimit!)}) the bot allows itself. ` +
        `It can watch about ${fmt(longest!)} brands on this plan: unsubscribe some brands or move to a plan with a higher daily limit.`,
  };
}
