/**
 * The budget's decisions chained on one complete state in memory: what a persistence must
 * be indistinguishable from. A persistence reads only part of the state for each decision
 * and writes back the changes; the model keeps everything and takes the next state as is.
 */
import { type BudgetState, snapshotOf } from '../../../src/api/limiter/budget-state.js';
import type { BudgetStore, SharedBucketConfig } from '../../../src/api/limiter/budget-store.js';
import { decideReaction } from '../../../src/api/limiter/decide-reaction.js';
import { decideTake } from '../../../src/api/limiter/decide-take.js';

/** A budget no process has touched yet, as a persistence reads it from empty tables. */
export const untouchedBudget: BudgetState = {
  bucket: null,
  daily: { day: '', count: 0 },
  pauses: new Map(),
  sends: new Map(),
};

export interface ModelBudget extends BudgetStore {
  readonly state: BudgetState;
}

export function modelBudget(config: SharedBucketConfig): ModelBudget {
  let state = untouchedBudget;
  return {
    get state() {
      return state;
    },
    async takeFirst(clockNow, requests) {
      const nowMs = clockNow();
      const decision = decideTake(state, config, nowMs, requests);
      state = decision.state;
      return decision.result;
    },
    async react(query, decide) {
      state = decideReaction(state, config, query, decide).state;
    },
    async snapshot(nowMs) {
      return snapshotOf(state, config, nowMs);
    },
    async close() {},
  };
}
