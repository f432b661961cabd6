/**
 * docs/api.md §8 plan tiers. docs/api.md §8: "burst" is the token bucket's capacity, refilled at
 * the per-minute rate (60/min with burst 100 = bucket of 100 refilled at 1 token/s).
 */
import type { PlanName } from '../plan-names.js';

export interface PlanLimits {
  readonly perMinute: number;
  readonly burst: number;
  /** null = no daily cap */
  readonly perDay: number | null;
}

export const PLAN_LIMITS: Readonly<Record<PlanName, PlanLimits>> = {
  scale: { perMinute: 60, burst: 100, perDay: 10_000 },
  enterprise: { perMinute: 300, burst: 500, perDay: null },
  test: { perMinute: 20, burst: 30, perDay: 1_000 },
};
