/**
 * What state() reports, from the shared budget as last read: synchronous, for metrics,
 * /healthz and status. Pauses and the day's count that have run out by `now` are shown as
 * over, so a stale read never shows a pause that has ended.
 */

import type { PlanName } from '../../plan-names.js';
import { nextUtcMidnight } from '../../utc-days.js';
import { type EndpointKey, endpointKeys } from '../endpoint-table.js';
import type { PlanLimits } from '../plans.js';
import type { SharedSnapshot } from './budget-store.js';
import type { Lane, LimiterState } from './types.js';

interface LimiterStateInput {
  now: number;
  plan: PlanName;
  limits: PlanLimits;
  windowMs: number;
  shared: SharedSnapshot;
  scopeOf(key: EndpointKey): { scope: string };
  queued: Record<Lane, number>;
  waitedMs: Record<Lane, number>;
  rateLimitedCount: number;
}

export function limiterState(i: LimiterStateInput): LimiterState {
  const { now, shared, limits } = i;
  const endpointPauses: LimiterState['endpointPauses'] = {};
  for (const key of endpointKeys) {
    const until = shared.scopePauses.get(i.scopeOf(key).scope);
    if (until !== undefined && until > now) endpointPauses[key] = until;
  }
  const dayOver = now >= shared.dailyResetAt;
  return {
    plan: i.plan,
    tokens: shared.tokens,
    capacity: limits.burst,
    refillPerSecond: (limits.perMinute * 1000) / i.windowMs,
    usedToday: dayOver ? 0 : shared.usedToday,
    dailyLimit: limits.perDay,
    dailyResetAt: dayOver ? nextUtcMidnight(now) : shared.dailyResetAt,
    keyPausedUntil:
      shared.keyPausedUntil !== null && shared.keyPausedUntil > now ? shared.keyPausedUntil : null,
    endpointPauses,
    lanes: {
      interactive: { queued: i.queued.interactive },
      background: { queued: i.queued.background },
    },
    waitedMs: { ...i.waitedMs },
    rateLimitedCount: i.rateLimitedCount,
  };
}
