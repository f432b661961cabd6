/**
 * The polling plan for the subscriptions as they are now: distinct brands with a live
 * subscription (a brand watched by several channels is polled once) against the daily
 * limit the key's limiter enforces.
 */
import type { AppDeps } from '../app-deps.js';
import { createSubscriptionsRepo } from '../store/subscriptions-repo.js';
import { type PollingPlan, planPolling } from './plan-polling.js';

export interface CurrentPlan extends PollingPlan {
  brands: number;
  dailyLimit: number | null;
}

export function currentPollingPlan(deps: Pick<AppDeps, 'db' | 'api'>): CurrentPlan {
  const brands = createSubscriptionsRepo(deps.db).activeBrandIds().length;
  const dailyLimit = deps.api.limiterState().dailyLimit;
  return { ...planPolling({ brands, dailyLimit }), brands, dailyLimit };
}
