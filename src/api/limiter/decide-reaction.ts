/**
 * The budget's side of a reaction to one response, pure. The send the response answers is
 * settled first: the oldest send of its scope (and of the key) still in flight moves to the
 * time the response came back. The server counted the request when it arrived, which may
 * be well after the grant (a burst queues for connections); the k-th response is no earlier
 * than the k-th arrival, so windows counted from response times never end before the
 * server's. Then the facts the limiter's decision needs are read from the settled state
 * (react-to-response.ts decides from them), and the writes it returns are applied in order.
 *
 * A request the service refused (a 429) stays counted: in the bucket, its window and the
 * day, as the service counted it too.
 */
import { utcDay } from '../../utc-days.js';
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
import {
  type BudgetWrite,
  type DecideReaction,
  KEY_SCOPE,
  type ReactionFacts,
  type ReactionQuery,
  type SharedBucketConfig,
} from './budget-store.js';
import { drainAfterPause } from './sliding-window.js';

/**
 * The rows a reaction needs: the oldest send in flight of the key and of the endpoint's
 * window, the window's sends (its count, a drain after a pause) and, for a header's window,
 * the sends since it began (never earlier than a window ago: reactionQuery).
 */
export function reactionRead(config: SharedBucketConfig, query: ReactionQuery): BudgetRead {
  const { scope, limit, nowMs, headerSinceMs } = query;
  const sendScopes = limit !== null || headerSinceMs !== null ? [scope] : [];
  if (headerSinceMs !== null) sendScopes.push(KEY_SCOPE);
  return {
    nowMs,
    sendScopes,
    sendsAfterMs: Math.min(nowMs - config.windowMs, headerSinceMs ?? Number.POSITIVE_INFINITY),
    inFlightScopes: limit === null ? [KEY_SCOPE] : [KEY_SCOPE, scope],
  };
}

/** Settles the answered send, asks `decide` for the writes, applies them. */
export function decideReaction(
  state: BudgetState,
  config: SharedBucketConfig,
  query: ReactionQuery,
  decide: DecideReaction,
): Decision<readonly BudgetWrite[]> {
  const { scope, limit, nowMs, headerSinceMs } = query;
  let next = settle(state, KEY_SCOPE, nowMs);
  if (limit !== null) next = settle(next, scope, nowMs);
  const settled = next;
  const countAfter = (s: string, afterMs: number) => sendTimesAfter(settled, s, afterMs).length;
  const facts: ReactionFacts = {
    scopeSends: limit === null ? 0 : countAfter(scope, nowMs - config.windowMs),
    tokens: bucketLevel(settled.bucket, config, nowMs).tokens,
    headerSends:
      headerSinceMs === null
        ? { scope: 0, key: 0 }
        : { scope: countAfter(scope, headerSinceMs), key: countAfter(KEY_SCOPE, headerSinceMs) },
  };
  const writes = decide(facts);
  for (const write of writes) next = applyWrite(next, config, query, write);
  return { result: writes, state: next, changes: budgetChanges(state, next) };
}

/** The oldest send of `scope` still in flight is answered at `nowMs` (never moved earlier). */
function settle(state: BudgetState, scope: string, nowMs: number): BudgetState {
  const rows = rowsOf(state, scope);
  const oldest = rows.find((r) => r.settled === false);
  if (!oldest) return state;
  const moved = { ...oldest, atMs: Math.max(oldest.atMs, nowMs), settled: true };
  const rest = rows.filter((r) => r !== oldest);
  return withLog(state, scope, { ...state.sends.get(scope), rows: insertRow(rest, moved) });
}

function applyWrite(
  state: BudgetState,
  config: SharedBucketConfig,
  query: ReactionQuery,
  write: BudgetWrite,
): BudgetState {
  const { nowMs } = query;
  const level = bucketLevel(state.bucket, config, nowMs);
  const pausedUntilMs = state.bucket?.pausedUntilMs ?? null;
  switch (write.op) {
    case 'pauseKey': {
      // With restartEmpty the bucket holds no tokens at the end of the pause and refills
      // from there, so every waiter (in every process) resumes at the refill rate.
      const until = Math.max(write.untilMs, pausedUntilMs ?? 0);
      const from = write.restartEmpty ? { tokens: 0, atMs: until } : level;
      return { ...state, bucket: { ...from, pausedUntilMs: until } };
    }
    case 'pauseScope':
      return pauseScope(state, config, query, write.untilMs, write.drain);
    case 'lowerTokens':
      // The server counts fewer requests left than the bucket holds: believe the server.
      if (level.tokens <= write.atMost) return state;
      return { ...state, bucket: { tokens: write.atMost, atMs: level.atMs, pausedUntilMs } };
    case 'spendTokens':
      // Another client spent tokens our grants do not account for: take them too.
      return {
        ...state,
        bucket: { tokens: Math.max(0, level.tokens - write.count), atMs: level.atMs, pausedUntilMs },
      };
    case 'markDaySpent':
      if (config.perDay === null) return state;
      return {
        ...state,
        daily: { day: utcDay(nowMs), count: Math.max(usedOn(state, nowMs), config.perDay) },
      };
  }
}

/**
 * Pauses the response's endpoint scope (a shorter pause never cuts a longer one short).
 * With `drain`, the window is rewritten so that from the pause's end its slots free one
 * per `windowMs / limit` at the earliest: after the pause the endpoint drains at its own
 * rate (sliding-window.ts, drainAfterPause).
 */
function pauseScope(
  state: BudgetState,
  config: SharedBucketConfig,
  { scope, limit, nowMs }: ReactionQuery,
  untilMs: number,
  drain: boolean,
): BudgetState {
  const until = Math.max(untilMs, state.pauses.get(scope) ?? Number.NEGATIVE_INFINITY);
  const paused = { ...state, pauses: new Map(state.pauses).set(scope, until) };
  if (!drain || limit === null) return paused;
  const live = sendTimesAfter(state, scope, nowMs - config.windowMs);
  const drained = drainAfterPause(live, limit, config.windowMs, untilMs);
  return withLog(paused, scope, {
    rows: drained.map((atMs) => ({ atMs, settled: true })),
    dropThroughMs: Number.POSITIVE_INFINITY,
  });
}
