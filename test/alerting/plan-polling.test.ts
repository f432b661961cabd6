import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callsPerBrandPerDay,
  DEFAULT_POLL_INTERVALS,
  INTERVAL_STEPS_HOURS,
  MAX_POLL_INTERVALS,
  maxBrandsWithin,
  planPolling,
} from '../../src/alerting/plan-polling.js';
import { PLAN_LIMITS } from '../../src/api/plans.js';

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
      // The target: at least 1,500 brands per Scale key at the defaults.
      maxBrands: 1538,
      warning: null,
    });
    expect(plan.callsPerDay).toBeCloseTo(7800);
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
    expect(plan.callsPerDay).toBeCloseTo(10_400);
    expect(plan.maxBrands).toBe(1538);
    expect(plan.warning).toMatch(/2,000 brands need 10,400 API calls a day/);
    expect(plan.warning).toMatch(/8,000 \(80 % of 10,000\)/);
    expect(plan.warning).toMatch(/about 1,538 brands/);
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
    expect(maxBrandsWithin(800, DEFAULT_POLL_INTERVALS)).toBe(153);
    expect(planPolling({ brands: 153, dailyLimit: PLAN_LIMITS.test.perDay }).fits).toBe(true);
  });

  it('property: the plan fits whenever fitting is possible, using ladder steps, never shorter than desired', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 100, max: 100_000 }),
        (brands, limit) => {
          const plan = planPolling({ brands, dailyLimit: limit });
          const budget = Math.floor(limit * 0.8);
          const possible = brands * callsPerBrandPerDay(MAX_POLL_INTERVALS) <= budget;
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
