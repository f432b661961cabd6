import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../../src/api/plans.js';
import {
  callsPerBrandPerDay,
  DEFAULT_POLL_INTERVALS,
  INTERVAL_STEPS_HOURS,
  MAX_POLL_INTERVALS,
  MODEL_LIST_CALLS_PER_POLL,
  maxBrandsWithin,
  planPolling,
  WHY_CALLS_PER_CITATIONS_RUN,
  WHY_CALLS_PER_CRAWLER_RUN,
  whyCallsPerDay,
} from '../../src/use-cases/plan-polling.js';

const SCALE = PLAN_LIMITS.scale.perDay;

describe('callsPerBrandPerDay', () => {
  it('defaults follow the data: one citations and one crawler poll a day, AI Pages daily and around a forecast crossing, the digest its ideas and chart', () => {
    // 1 + 1 + (1 + 10 % × 2 extra polls around a crossing) + 2 digest calls (ideas, chart)
    expect(callsPerBrandPerDay(DEFAULT_POLL_INTERVALS)).toBeCloseTo(5.2);
    expect(callsPerBrandPerDay(DEFAULT_POLL_INTERVALS, { digest: false })).toBeCloseTo(3.2);
    // The old defaults (12 h / 6 h / 6 h) cost more: 2 + 4 + (4 + 10 % × 4) + 1.
    expect(callsPerBrandPerDay({ citationsHours: 12, crawlerHours: 6, aiPagesHours: 6 })).toBeCloseTo(12.2);
  });
});

describe('planPolling', () => {
  it('keeps the desired intervals when they fit in 80 % of the quota', () => {
    const plan = planPolling({ brands: 1500, dailyLimit: SCALE });
    expect(plan).toMatchObject({
      intervals: DEFAULT_POLL_INTERVALS,
      budgetPerDay: 8000,
      stretched: false,
      fits: true,
      // The target: at least 1,500 brands per Scale key at the defaults:
      // (8,000 − 19 why-line calls a day) / 5.2.
      maxBrands: 1534,
      warning: null,
    });
    expect(plan.callsPerDay).toBeCloseTo(7819);
  });

  it('stretches the most expensive polls first until they fit', () => {
    // Operators asking for more frequent polls than the data's rhythm.
    const desired = { citationsHours: 12, crawlerHours: 6, aiPagesHours: 6 };
    const plan = planPolling({ brands: 900, dailyLimit: SCALE, desired });
    expect(plan.fits).toBe(true);
    expect(plan.stretched).toBe(true);
    expect(plan.callsPerDay).toBeLessThanOrEqual(8000);
    // The continuous sources stretch first; citations stay at their desired 12 h.
    expect(plan.intervals.citationsHours).toBe(12);
    expect(plan.intervals.crawlerHours).toBeGreaterThan(6);
  });

  it('1,000 brands fit a Scale key only at daily polling', () => {
    const plan = planPolling({ brands: 1000, dailyLimit: SCALE });
    expect(plan.fits).toBe(true);
    expect(plan.callsPerDay).toBeLessThanOrEqual(8000);
  });

  it('warns when even the longest intervals do not fit, saying how many brands would', () => {
    const plan = planPolling({ brands: 2000, dailyLimit: SCALE });
    expect(plan.fits).toBe(false);
    expect(plan.intervals).toEqual(MAX_POLL_INTERVALS);
    expect(plan.callsPerDay).toBeCloseTo(10_419);
    expect(plan.maxBrands).toBe(1534);
    expect(plan.warning).toMatch(/2,000 brands need 10,419 API calls a day/);
    expect(plan.warning).toMatch(/8,000 \(80 % of 10,000\)/);
    expect(plan.warning).toMatch(/about 1,534 brands/);
  });

  it('an unlimited plan never stretches', () => {
    const plan = planPolling({ brands: 100_000, dailyLimit: null });
    expect(plan).toMatchObject({
      intervals: DEFAULT_POLL_INTERVALS,
      fits: true,
      budgetPerDay: null,
      maxBrands: null,
    });
  });

  it('test keys (1,000/day) fit 153 brands at defaults', () => {
    expect(maxBrandsWithin(800, DEFAULT_POLL_INTERVALS)).toBe(150);
    expect(planPolling({ brands: 150, dailyLimit: PLAN_LIMITS.test.perDay }).fits).toBe(true);
    expect(planPolling({ brands: 151, dailyLimit: PLAN_LIMITS.test.perDay }).fits).toBe(false);
  });

  it('counts the AI model rule: one citation list per poll for each brand that has it on', () => {
    expect(MODEL_LIST_CALLS_PER_POLL).toBe(1);
    // Every brand with model alerts: 6.2 calls a brand a day.
    expect(callsPerBrandPerDay(DEFAULT_POLL_INTERVALS, {}, 1)).toBeCloseTo(6.2);
    const all = planPolling({ brands: 1000, modelBrands: 1000, dailyLimit: SCALE });
    expect(all.callsPerDay).toBeCloseTo(1000 * 6.2 + 19);
    expect(all.callsPerBrandPerDay).toBeCloseTo(6.2);
    // (8,000 − 19) / 6.2: on for every brand, the key watches fewer than the 1,500 promised,
    // which is why the rule is a per-subscription option, off by default.
    expect(all.maxBrands).toBe(1287);
    const half = planPolling({ brands: 1000, modelBrands: 500, dailyLimit: SCALE });
    expect(half.callsPerDay).toBeCloseTo(1000 * 5.2 + 500 + 19);
    expect(planPolling({ brands: 1500, modelBrands: 1500, dailyLimit: SCALE }).fits).toBe(false);
    expect(planPolling({ brands: 1500, modelBrands: 0, dailyLimit: SCALE }).fits).toBe(true);
  });

  it('counts the why-lines calls as the per-run bounds times the runs a day', () => {
    expect(whyCallsPerDay(DEFAULT_POLL_INTERVALS)).toBe(
      WHY_CALLS_PER_CITATIONS_RUN + WHY_CALLS_PER_CRAWLER_RUN,
    );
    expect(whyCallsPerDay({ ...DEFAULT_POLL_INTERVALS, crawlerHours: 6 })).toBe(
      WHY_CALLS_PER_CITATIONS_RUN + 4 * WHY_CALLS_PER_CRAWLER_RUN,
    );
    expect(planPolling({ brands: 0, dailyLimit: SCALE }).callsPerDay).toBe(0);
  });

  it('property: the plan fits whenever fitting is possible, using ladder steps, never shorter than desired', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 100, max: 100_000 }),
        (brands, limit) => {
          const plan = planPolling({ brands, dailyLimit: limit });
          const budget = Math.floor(limit * 0.8);
          const fixed = brands > 0 ? whyCallsPerDay(MAX_POLL_INTERVALS) : 0;
          const possible = brands * callsPerBrandPerDay(MAX_POLL_INTERVALS) + fixed <= budget;
          expect(plan.fits).toBe(possible);
          if (possible) expect(plan.callsPerDay).toBeLessThanOrEqual(budget);
          for (const k of ['citationsHours', 'crawlerHours', 'aiPagesHours'] as const) {
            expect(INTERVAL_STEPS_HOURS).toContain(plan.intervals[k]);
            expect(plan.intervals[k]).toBeGreaterThanOrEqual(DEFAULT_POLL_INTERVALS[k]);
          }
        },
      ),
    );
  });
});
