/**
 * The polling plan for the subscriptions as they are now: distinct brands with a live
 * subscription (a brand watched by several channels is polled once) against the daily
 * limit the key's limiter enforces (brands with AI model alerts on cost one more call per
 * citations poll), and when in the day each poll runs: the citations
 * poll just after the service's usual research run as the data showed it (data-rhythm.ts).
 */
import type { VisibilityApi } from '../api/visibility-api.js';
import type { Store } from '../store/store.js';
import { citationsPollOffsetMs } from './data-rhythm.js';
import type { PollJob } from './job-names.js';
import { type PollingPlan, planPolling } from './plan-polling.js';

/** Minutes past each slot's start; spreads the jobs' calls. */
export const JOB_OFFSETS_MS: Readonly<Record<PollJob, number>> = {
  citations: 2 * 60_000,
  crawler: 4 * 60_000,
  'ai-pages': 6 * 60_000,
};

export interface CurrentPlan extends PollingPlan {
  brands: number;
  dailyLimit: number | null;
  /** Each poll's offset into its slot (ms after UTC midnight for daily polls). */
  offsetsMs: Readonly<Record<PollJob, number>>;
}

/** The subscriptions and the polls' timing (database), the key's daily limit (the API client's limiter). */
export interface PollingPlanDeps {
  store: Pick<Store, 'subscriptions' | 'pollObservations'>;
  api: Pick<VisibilityApi, 'limiterState'>;
}

/** Distinct brands an alerting subscription has AI model alerts on for (their list is read). */
async function modelAlertBrands(deps: PollingPlanDeps): Promise<number> {
  const subs = await deps.store.subscriptions.listActive('alerts');
  return new Set(subs.filter((s) => s.settings.modelAlerts).map((s) => s.brandId)).size;
}

export async function currentPollingPlan(deps: PollingPlanDeps): Promise<CurrentPlan> {
  const brands = (await deps.store.subscriptions.activeBrandIds()).length;
  const modelBrands = await modelAlertBrands(deps);
  const dailyLimit = deps.api.limiterState().dailyLimit;
  const plan = planPolling({ brands, modelBrands, dailyLimit });
  const learned =
    plan.intervals.citationsHours === 24
      ? citationsPollOffsetMs(await deps.store.pollObservations.numbers('citations', 'runTimeOfDayMs'))
      : null;
  return {
    ...plan,
    brands,
    dailyLimit,
    offsetsMs: { ...JOB_OFFSETS_MS, ...(learned === null ? {} : { citations: learned }) },
  };
}
