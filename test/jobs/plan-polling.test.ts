import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../../src/api/plans.js';
import {
  callsPerBrandPerDay,
  DEFAULT_POLL_INTERVALS,
  INTERVAL_STEPS_HOURS,
  MAX_POLL_INTERVALS,
  maxBrandsWithin,
  planPolling,
} from '../../src/jobs/plan-polling.js';

const SCALE = PLAN_LIMITS.scale.perDay;

describe('callsPerBrandPerDay', () => {
  it('defaults: citations every 12 h, crawler and AI Pages every 6 h, plus the digest', () => {
    // 2 + 4 + 4 polls + 4 digest calls
    expect(callsPerBrandPerDay(DEFAULT_POLL_INTERVALS)).toBe(14);
    expect(callsPerBrandPerDay(DEFAULT_POLL_INTERVALS, { digest: false })).toBe(10);
    expect(callsPerBrandPerDay(MAX_POLL_INTERVALS)).toBe(7);
  });
});

describe('planPolling', () => {
  it('keeps the desired intervals when they fit in 80 % of the quota', () => {
    const plan = planPolling({ brands: 500, dailyLimit: SCALE });
    expect(plan).toMatchObject({
      intervals: DEFAULT_POLL_INTERVALS,
      callsPerDay: 7000,
      budgetPerDay: 8000,
      stretched: false,
      fits: true,
      maxBrands: 571,
      warning: null,
    });
  });

  it('stretches the most expensive polls first until they fit', () => {
    const plan = planPolling({ brands: 700, dailyLimit: SCALE });
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
    expect(plan.callsPerDay).toBe(14_000);
    expect(plan.maxBrands).toBe(1142);
    expect(plan.warning).toMatch(/2,000 brands need 14,000 API calls a day/);
    expect(plan.warning).toMatch(/8,000 \(80 % of 10,000\)/);
    expect(plan.warning).toMatch(/about 1,142 brands/);
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

  it('test keys (1,000/day) fit 57 brands at defaults', () => {
    expect(maxBrandsWithin(800, DEFAULT_POLL_INTERVALS)).toBe(57);
    expect(planPolling({ brands: 57, dailyLimit: PLAN_LIMITS.test.perDay }).stretched).toBe(false);
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
