/**
 * Options with their defaults filled in, and the limits a plan starts with.
 */
import { PLAN_LIMITS } from '../../api/plans.js';
import { type Clock, systemClock } from '../../clock.js';
import type { PlanName } from '../../plan-names.js';
import type { SimulatorLimits, SimulatorOptions } from './types.js';

export interface SimulatorOptionsResolved {
  port: number;
  host: string;
  plan: PlanName;
  limits: SimulatorLimits;
  clock: Clock;
  generationMs: number;
  /** brands in all, seed profiles included */
  brands: number;
  alreadyGeneratingAs: 'ok' | 'conflict';
}

const DEFAULT_GENERATION_MS = 1500;
const DEFAULT_WINDOW_MS = 60_000;

function planLimits(plan: PlanName): SimulatorLimits {
  const p = PLAN_LIMITS[plan];
  return {
    perMinute: p.perMinute,
    burst: p.burst,
    perDay: p.perDay,
    endpointPerMinute: null,
    windowMs: DEFAULT_WINDOW_MS,
  };
}

/** Merges `patch` into `base`; throws on a value the limiter cannot work with. */
export function mergeLimits(base: SimulatorLimits, patch: Partial<SimulatorLimits>): SimulatorLimits {
  const merged: SimulatorLimits = { ...base };
  for (const [key, value] of Object.entries(patch) as [keyof SimulatorLimits, unknown][]) {
    if (value === undefined) continue;
    (merged as unknown as Record<string, unknown>)[key] = value;
  }
  const positive = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (!positive(merged.perMinute)) throw new Error('limits.perMinute must be a number > 0');
  if (!positive(merged.burst) || merged.burst < 1) throw new Error('limits.burst must be a number >= 1');
  if (!positive(merged.windowMs)) throw new Error('limits.windowMs must be a number > 0');
  if (merged.perDay !== null && !(Number.isInteger(merged.perDay) && merged.perDay >= 0)) {
    throw new Error('limits.perDay must be an integer >= 0 or null');
  }
  if (
    merged.endpointPerMinute !== null &&
    !(Number.isInteger(merged.endpointPerMinute) && merged.endpointPerMinute >= 1)
  ) {
    throw new Error('limits.endpointPerMinute must be an integer >= 1 or null');
  }
  return merged;
}

export function resolveOptions(options: SimulatorOptions = {}): SimulatorOptionsResolved {
  const plan = options.plan ?? 'scale';
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    plan,
    limits: mergeLimits(planLimits(plan), options.limits ?? {}),
    clock: options.clock ?? systemClock,
    generationMs: options.generationMs ?? DEFAULT_GENERATION_MS,
    brands: resolveBrandCount(options.brands),
    alreadyGeneratingAs: options.alreadyGeneratingAs ?? 'ok',
  };
}

/** Most brands one simulator generates: enough for benchmarks at scale, bounded memory. */
export const MAX_SIMULATED_BRANDS = 5_000;

function resolveBrandCount(brands: number | undefined): number {
  if (brands === undefined) return 5;
  if (!Number.isInteger(brands) || brands < 1 || brands > MAX_SIMULATED_BRANDS) {
    throw new Error(`brands must be a whole number from 1 to ${MAX_SIMULATED_BRANDS}`);
  }
  return Math.max(5, brands);
}
