/**
 * The reaction to one response as a pure function of the budget's state: the answered send
 * is settled, the facts are read from the settled state, the writes are applied. First
 * each part alone, then whole reactions to the responses the service sends (429 with and
 * without Retry-After, a daily limit, an endpoint's own limit, X-RateLimit-* headers)
 * through the limiter's own decision (react-to-response.ts), on the Scale plan.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EndpointKey } from '../../../src/api/endpoint-table.js';
import { isUnchanged } from '../../../src/api/limiter/budget-changes.js';
import { type BudgetState, snapshotOf } from '../../../src/api/limiter/budget-state.js';
import {
  type BudgetWrite,
  KEY_SCOPE,
  type ReactionFacts,
  type ReactionQuery,
  type SharedBucketConfig,
} from '../../../src/api/limiter/budget-store.js';
import { decideReaction, reactionRead } from '../../../src/api/limiter/decide-reaction.js';
import { decideTake } from '../../../src/api/limiter/decide-take.js';
import { endpointScope } from '../../../src/api/limiter/endpoint-scope.js';
import {
  type OwnView,
  type ReactionContext,
  reactionQuery,
  reactToResponse,
} from '../../../src/api/limiter/react-to-response.js';
import type { RateLimitObservation } from '../../../src/api/limiter/types.js';
import { PLAN_LIMITS } from '../../../src/api/plans.js';
import { untouchedBudget } from './budget-model.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const WINDOW = 60_000;
const scale = PLAN_LIMITS.scale;
/** The Scale plan: 60/min, burst 100, 10,000 a day. */
const config: SharedBucketConfig = {
  capacity: scale.burst,
  refillPerMs: scale.perMinute / WINDOW,
  perDay: scale.perDay,
  windowMs: WINDOW,
};

/** `n` grants of `endpoint` at `from`, `from` + 1, …, none answered yet. */
function sent(
  endpoint: EndpointKey,
  n: number,
  state: BudgetState = untouchedBudget,
  from = T0,
): BudgetState {
  const { scope, limit } = endpointScope(endpoint);
  let s = state;
  for (let i = 0; i < n; i++) {
    const d = decideTake(s, config, from + i, [{ scope, limit, tokensLeft: 0, slotsLeft: 0 }]);
    expect(d.result.kind).toBe('granted');
    s = d.state;
  }
  return s;
}

const query = (scope: string, limit: number | null, nowMs: number, headerSinceMs: number | null = null) =>
  ({ scope, limit, nowMs, headerSinceMs }) satisfies ReactionQuery;

/** Reacts with fixed writes, returning the facts the decision was given too. */
function reactWith(state: BudgetState, q: ReactionQuery, writes: BudgetWrite[] = []) {
  let facts: ReactionFacts | undefined;
  const d = decideReaction(state, config, q, (f) => {
    facts = f;
    return writes;
  });
  return { ...d, facts: facts! };
}

const times = (state: BudgetState, scope: string) =>
  state.sends.get(scope)?.rows.map((r) => [r.atMs, r.settled]);

describe('settling the answered send', () => {
  it('moves the oldest send in flight of the endpoint and of the key to the response’s time', () => {
    const { state } = reactWith(sent('getBrands', 3), query('getBrands', 60, T0 + 500));
    expect(times(state, 'getBrands')).toEqual([
      [T0 + 1, false],
      [T0 + 2, false],
      [T0 + 500, true],
    ]);
    expect(times(state, KEY_SCOPE)).toEqual(times(state, 'getBrands'));
  });

  it('never moves a send earlier, and settles nothing when nothing is in flight', () => {
    const once = reactWith(sent('getBrands', 1), query('getBrands', 60, T0 - 50)).state;
    expect(times(once, 'getBrands')).toEqual([[T0, true]]);
    const again = reactWith(once, query('getBrands', 60, T0 + 50));
    expect(again.state).toBe(once);
    expect(isUnchanged(again.changes)).toBe(true);
  });

  it('settles only the key’s send for an endpoint without a window', () => {
    const s = sent('getBrands', 1);
    const { state } = reactWith(s, query('getBrands', null, T0 + 200));
    expect(times(state, KEY_SCOPE)).toEqual([[T0 + 200, true]]);
    expect(times(state, 'getBrands')).toEqual([[T0, false]]);
  });

  it('reads only what it needs: the sends in flight, the window when it has one, since a header’s window', () => {
    expect(reactionRead(config, query('getBrands', null, T0))).toEqual({
      nowMs: T0,
      sendScopes: [],
      sendsAfterMs: T0 - WINDOW,
      inFlightScopes: [KEY_SCOPE],
    });
    expect(reactionRead(config, query('getBrands', 60, T0, T0 - 20_000))).toEqual({
      nowMs: T0,
      sendScopes: ['getBrands', KEY_SCOPE],
      sendsAfterMs: T0 - WINDOW,
      inFlightScopes: [KEY_SCOPE, 'getBrands'],
    });
  });

  it('only ever moves sends later, one per scope, whatever the order of responses', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 30 }),
        (events) => {
          let state = untouchedBudget;
          let now = T0;
          for (const [isGrant, dt] of events) {
            now += dt;
            const before = state.sends.get('getBrands')?.rows ?? [];
            if (isGrant) {
              state = decideTake(state, config, now, [
                { scope: 'getBrands', limit: 60, tokensLeft: 0, slotsLeft: 0 },
              ]).state;
              continue;
            }
            state = reactWith(state, query('getBrands', 60, now)).state;
            const after = state.sends.get('getBrands')?.rows ?? [];
            const inFlight = (rows: typeof before) => rows.filter((r) => !r.settled).length;
            expect(after.length).toBe(before.length);
            expect(inFlight(after)).toBe(Math.max(0, inFlight(before) - 1));
            const sorted = (rows: typeof before) => rows.map((r) => r.atMs).sort((a, b) => a - b);
            sorted(after).forEach((t, i) => {
              expect(t).toBeGreaterThanOrEqual(sorted(before)[i]!);
            });
          }
        },
      ),
    );
  });
});

describe('the facts a reaction decides from', () => {
  it('count the window’s sends once the answered one is settled, and those since a header’s window began', () => {
    const s = sent('getCitations', 2, sent('getBrands', 3), T0 + 3);
    const { facts } = reactWith(s, query('getBrands', 60, T0 + 30_000, T0 + 1));
    expect(facts).toEqual({ scopeSends: 3, tokens: 100, headerSends: { scope: 2, key: 4 } });
    // A window that has passed counts nothing.
    expect(reactWith(s, query('getBrands', 60, T0 + WINDOW + 10)).facts.scopeSends).toBe(1);
    expect(reactWith(s, query('getBrands', null, T0 + 10)).facts).toMatchObject({
      scopeSends: 0,
      headerSends: { scope: 0, key: 0 },
    });
  });
});

describe('the writes of a reaction', () => {
  const five = sent('getBrands', 5);

  it('pauseKey: the bucket restarts empty at the end, a shorter pause never shortens it', () => {
    const paused = reactWith(five, query('getBrands', 60, T0 + 10), [
      { op: 'pauseKey', untilMs: T0 + 30_000, restartEmpty: true },
    ]).state;
    expect(paused.bucket).toEqual({ tokens: 0, atMs: T0 + 30_000, pausedUntilMs: T0 + 30_000 });
    const shorter = reactWith(paused, query('getBrands', 60, T0 + 20), [
      { op: 'pauseKey', untilMs: T0 + 1_000, restartEmpty: false },
    ]).state;
    expect(shorter.bucket).toEqual({ tokens: 0, atMs: T0 + 30_000, pausedUntilMs: T0 + 30_000 });
    // Without restartEmpty the level stays what it is (refilled to now).
    const kept = reactWith(five, query('getBrands', 60, T0 + 2_000), [
      { op: 'pauseKey', untilMs: T0 + 9_000, restartEmpty: false },
    ]).state;
    expect(kept.bucket).toMatchObject({ atMs: T0 + 2_000, pausedUntilMs: T0 + 9_000 });
    expect(kept.bucket?.tokens).toBeCloseTo(97);
  });

  it('pauseScope: keeps the longer pause; with drain the window frees at the endpoint’s rate after it', () => {
    const longer = reactWith(five, query('getBrands', 60, T0 + 10), [
      { op: 'pauseScope', untilMs: T0 + 20_000, drain: false },
      { op: 'pauseScope', untilMs: T0 + 5_000, drain: false },
    ]);
    expect(longer.state.pauses).toEqual(new Map([['getBrands', T0 + 20_000]]));
    expect(longer.changes.pauses).toEqual([['getBrands', T0 + 20_000]]);

    const writes = sent('addMarket', 3);
    const drained = reactWith(writes, query('group:brand-writes', 30, T0 + 10), [
      { op: 'pauseScope', untilMs: T0 + 10_000, drain: true },
    ]);
    const rows = drained.state.sends.get('group:brand-writes')!.rows;
    // 30 slots, one freed every 2 s from the end of the pause on; the real sends among them.
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.settled)).toBe(true);
    expect(rows.slice(0, 3).map((r) => r.atMs)).toEqual([
      T0 + 10_000 - WINDOW,
      T0 + 12_000 - WINDOW,
      T0 + 14_000 - WINDOW,
    ]);
    expect(rows.at(-1)!.atMs).toBe(T0 + 10_000 + 29 * 2_000 - WINDOW);
    // Every send the window held before is replaced (budget-changes.ts drops them all).
    expect(drained.state.sends.get('group:brand-writes')?.dropThroughMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('lowerTokens only lowers; spendTokens takes tokens another client spent', () => {
    const lowered = reactWith(five, query('getBrands', 60, T0 + 4), [
      { op: 'lowerTokens', atMost: 10 },
    ]).state;
    expect(lowered.bucket?.tokens).toBe(10);
    const notRaised = reactWith(lowered, query('getBrands', 60, T0 + 4), [{ op: 'lowerTokens', atMost: 50 }]);
    expect(notRaised.state.bucket?.tokens).toBe(10);
    expect(notRaised.changes.bucket).toBeUndefined();
    const spent = reactWith(lowered, query('getBrands', 60, T0 + 4), [
      { op: 'spendTokens', count: 25 },
    ]).state;
    expect(spent.bucket?.tokens).toBe(0);
  });

  it('markDaySpent: the day counts as spent until midnight (nothing to mark without a daily cap)', () => {
    const marked = reactWith(five, query('getBrands', 60, T0 + 10), [{ op: 'markDaySpent' }]).state;
    expect(snapshotOf(marked, config, T0 + 10).usedToday).toBe(10_000);
    expect(
      decideTake(marked, config, T0 + 20, [{ scope: 'x', limit: null, tokensLeft: 0, slotsLeft: 0 }]).result
        .kind,
    ).toBe('quota');
    const uncapped = decideReaction(
      five,
      { ...config, perDay: null },
      query('getBrands', 60, T0 + 10),
      () => [{ op: 'markDaySpent' }],
    ).state;
    expect(uncapped.daily).toBe(five.daily);
  });
});

describe('reacting to what the service answers (Scale plan, no jitter)', () => {
  const ctx: ReactionContext = {
    limits: scale,
    windowMs: WINDOW,
    defaultRetryAfterMs: 60_000,
    maxJitterMs: 0,
    random: () => 0,
    recordKey429: () => {},
  };

  /** The response to the oldest grant of `endpoint`, as the limiter reacts to it. */
  function respond(
    state: BudgetState,
    endpoint: EndpointKey,
    o: RateLimitObservation,
    now: number,
    view?: OwnView,
  ) {
    const window = endpointScope(endpoint);
    const seen = view ?? { own: undefined, marginTokens: 0 };
    return decideReaction(state, config, reactionQuery(ctx, window, o, now), (facts) =>
      reactToResponse(ctx, endpoint, window, o, now, seen, facts),
    );
  }

  const KEY_429 = 'Rate limit exceeded: 60 per 1 minute';

  it('a 429 with Retry-After pauses the key and the endpoint; the key resumes from an empty bucket', () => {
    const d = respond(
      sent('getBrands', 3),
      'getBrands',
      { status: 429, retryAfterMs: 30_000, message: KEY_429 },
      T0 + 100,
    );
    const at = snapshotOf(d.state, config, T0 + 100);
    expect(at.keyPausedUntil).toBe(T0 + 30_100);
    expect(at.scopePauses).toEqual(new Map([['getBrands', T0 + 30_100]]));
    expect(d.state.bucket).toEqual({ tokens: 0, atMs: T0 + 30_100, pausedUntilMs: T0 + 30_100 });
  });

  it('a refused request stays counted: in the day, its window and the key’s', () => {
    const before = sent('getBrands', 3);
    const d = respond(before, 'getBrands', { status: 429, retryAfterMs: 1_000, message: KEY_429 }, T0 + 100);
    expect(d.state.daily).toEqual(before.daily);
    expect(d.state.sends.get('getBrands')?.rows).toHaveLength(3);
    expect(d.state.sends.get(KEY_SCOPE)?.rows).toHaveLength(3);
  });

  it('a 429 without Retry-After waits the delay its message names, else a minute', () => {
    const named = respond(
      sent('getBrands', 1),
      'getBrands',
      { status: 429, message: 'Too many requests, retry in 20 seconds' },
      T0,
    );
    expect(named.state.bucket?.pausedUntilMs).toBe(T0 + 20_000);
    // "60 per 1 minute" is a rate, not a delay.
    const rate = respond(sent('getBrands', 1), 'getBrands', { status: 429, message: KEY_429 }, T0);
    expect(rate.state.bucket?.pausedUntilMs).toBe(T0 + 60_000);
    const none = respond(sent('getBrands', 1), 'getBrands', { status: 429 }, T0);
    expect(none.state.bucket?.pausedUntilMs).toBe(T0 + 60_000);
  });

  it('a 429 naming the endpoint’s own limit pauses only its window, which then drains at its rate', () => {
    const d = respond(
      sent('addMarket', 2),
      'addMarket',
      { status: 429, retryAfterMs: 10_000, message: 'Rate limit exceeded: 30 per 1 minute' },
      T0 + 100,
    );
    expect(d.state.bucket?.pausedUntilMs).toBeNull();
    expect(d.state.pauses).toEqual(new Map([['group:brand-writes', T0 + 10_100]]));
    expect(d.state.sends.get('group:brand-writes')?.rows).toHaveLength(30);
    // The key's own window keeps its sends as they were, the answered one settled.
    expect(times(d.state, KEY_SCOPE)).toEqual([
      [T0 + 1, false],
      [T0 + 100, true],
    ]);
  });

  it('a 429 naming a daily limit spends the day', () => {
    const d = respond(
      sent('getBrands', 1),
      'getBrands',
      { status: 429, message: 'Rate limit exceeded: 10000 per 1 day' },
      T0,
    );
    expect(snapshotOf(d.state, config, T0).usedToday).toBe(10_000);
  });

  it('a Remaining below what our grants explain takes the shortfall; another process’s response is believed', () => {
    const s = sent('getBrands', 10);
    // Our grant left 99 tokens; 9 more grants since, so the service should say about 90.
    // (X-RateLimit-Limit 100 is the key's burst, not the endpoint's 60 a minute.)
    const own = { grantedAtMs: T0, levelAfter: 99, laterGrants: 9 };
    const shortfall = respond(s, 'getBrands', { status: 200, remaining: 80, limit: 100 }, T0 + 20, {
      own,
      marginTokens: 0,
    });
    expect(shortfall.result).toEqual([{ op: 'spendTokens', count: 10 }]);
    expect(shortfall.state.bucket?.tokens).toBeCloseTo(90 + 0.02 - 10);
    const explained = respond(s, 'getBrands', { status: 200, remaining: 90, limit: 100 }, T0 + 20, {
      own,
      marginTokens: 0,
    });
    expect(explained.result).toEqual([]);
    const theirs = respond(s, 'getBrands', { status: 200, remaining: 40, limit: 100 }, T0 + 20);
    expect(theirs.state.bucket?.tokens).toBe(40);
  });

  it('Remaining 0 until Reset pauses the key until Reset when our log shows its window spent', () => {
    let s = untouchedBudget;
    for (let i = 0; i < 60; i++) {
      s = decideTake(s, config, T0 + i * 10, [
        { scope: `e${i % 6}`, limit: null, tokensLeft: 0, slotsLeft: 0 },
      ]).state;
    }
    const o = { status: 200, remaining: 0, limit: 60, resetAtMs: T0 + 30_000 };
    const d = respond(s, 'getBrands', o, T0 + 1_000);
    expect(d.result).toContainEqual({ op: 'pauseKey', untilMs: T0 + 30_000, restartEmpty: false });
    expect(snapshotOf(d.state, config, T0 + 1_000).keyPausedUntil).toBe(T0 + 30_000);
  });
});
