/**
 * The grant decision, pure: of the requests waiting (in the caller's priority order: the
 * interactive lane first), the first that may be sent now is granted and counted against
 * the key's bucket, its endpoint window and the day; otherwise the answer is how long
 * until the earliest of them could go, or that the day's quota is spent. A persistence
 * reads `takeRead`, calls `decideTake` and writes back its changes in one transaction under
 * the key's lock, with `nowMs` read once the lock is held: a time read before waiting for
 * another process's decision would be stale, and a send recorded early leaves its window
 * early.
 */
import { nextUtcMidnight, utcDay } from '../../utc-days.js';
import { budgetChanges, type Decision } from './budget-changes.js';
import {
  type BudgetRead,
  type BudgetState,
  bucketLevel,
  insertRow,
  rowsOf,
  sendTimesAfter,
  usedOn,
  withLog,
} from './budget-state.js';
import { KEY_SCOPE, type SharedBucketConfig, type TakeRequest, type TakeResult } from './budget-store.js';
import { msUntilWindowSlot } from './sliding-window.js';
import { type BucketLevel, msUntilTokens } from './token-bucket.js';

/** The rows a grant decision needs: the windows of the requests' endpoint scopes. */
export function takeRead(
  config: SharedBucketConfig,
  nowMs: number,
  requests: readonly TakeRequest[],
): BudgetRead {
  const windowed = requests.filter((r) => r.limit !== null).map((r) => r.scope);
  return {
    nowMs,
    sendScopes: [...new Set(windowed)],
    sendsAfterMs: nowMs - config.windowMs,
    inFlightScopes: [],
  };
}

export function decideTake(
  state: BudgetState,
  config: SharedBucketConfig,
  nowMs: number,
  requests: readonly TakeRequest[],
): Decision<TakeResult> {
  const unchanged = (result: TakeResult) => ({ result, state, changes: budgetChanges(state, state) });
  if (config.perDay !== null && usedOn(state, nowMs) >= config.perDay) {
    return unchanged({ kind: 'quota', resetAt: nextUtcMidnight(nowMs) });
  }
  const pausedUntil = state.bucket?.pausedUntilMs ?? null;
  if (pausedUntil !== null && pausedUntil > nowMs)
    return unchanged({ kind: 'wait', waitMs: pausedUntil - nowMs });
  const level = bucketLevel(state.bucket, config, nowMs);

  let earliest = Number.POSITIVE_INFINITY;
  for (const [index, request] of requests.entries()) {
    const waitMs = Math.max(
      msUntilTokens(level, config, nowMs, Math.min(1 + request.tokensLeft, config.capacity)),
      (state.pauses.get(request.scope) ?? nowMs) - nowMs,
      windowWait(state, config, request, nowMs),
    );
    if (waitMs <= 0) {
      const next = spend(state, config, level, request, nowMs);
      return {
        result: { kind: 'granted', index, nowMs, tokensBefore: level.tokens },
        state: next,
        changes: budgetChanges(state, next),
      };
    }
    earliest = Math.min(earliest, waitMs);
  }
  return unchanged({ kind: 'wait', waitMs: earliest, tokensBefore: level.tokens });
}

/** ms until the request's endpoint window has a slot for it (with the slots its lane leaves free). */
function windowWait(
  state: BudgetState,
  config: SharedBucketConfig,
  request: TakeRequest,
  nowMs: number,
): number {
  if (request.limit === null) return 0;
  const sends = sendTimesAfter(state, request.scope, nowMs - config.windowMs);
  const free = 1 + Math.min(request.slotsLeft, request.limit - 1);
  return msUntilWindowSlot(sends, request.limit, config.windowMs, nowMs, free);
}

/**
 * Takes a token, records the send in the key's log and the endpoint's window, counts it
 * for the day. Sends older than a window are dropped from the logs it writes: no decision
 * looks at them again.
 */
function spend(
  state: BudgetState,
  config: SharedBucketConfig,
  level: BucketLevel,
  request: TakeRequest,
  nowMs: number,
): BudgetState {
  const dropThroughMs = nowMs - config.windowMs;
  let next: BudgetState = {
    ...state,
    bucket: {
      tokens: Math.max(0, level.tokens - 1),
      atMs: level.atMs,
      pausedUntilMs: state.bucket?.pausedUntilMs ?? null,
    },
    daily: { day: utcDay(nowMs), count: usedOn(state, nowMs) + 1 },
  };
  for (const scope of request.limit === null ? [KEY_SCOPE] : [KEY_SCOPE, request.scope]) {
    const kept = rowsOf(next, scope).filter((r) => r.atMs > dropThroughMs);
    next = withLog(next, scope, { rows: insertRow(kept, { atMs: nowMs, settled: false }), dropThroughMs });
  }
  return next;
}
