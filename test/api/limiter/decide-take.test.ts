/**
 * The grant decision as a pure function of the budget's state: which request goes, what it
 * counts, how long the others wait. Examples first, then properties over random sequences
 * of grants and reactions chained on one state: never more than the bucket or a window
 * allows, the first request that may go is the one granted (the interactive lane comes
 * first), the background lane always leaves room for a person's call, and the day's count
 * is exact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUnchanged } from '../../../src/api/limiter/budget-changes.js';
import { type BudgetState, snapshotOf } from '../../../src/api/limiter/budget-state.js';
import {
  type BudgetWrite,
  KEY_SCOPE,
  type SharedBucketConfig,
  type TakeRequest,
} from '../../../src/api/limiter/budget-store.js';
import { decideReaction } from '../../../src/api/limiter/decide-reaction.js';
import { decideTake, takeRead } from '../../../src/api/limiter/decide-take.js';
import { utcDay } from '../../../src/utc-days.js';
import { untouchedBudget } from './budget-model.js';
import { maxInAnyWindow, worstBucketExcess } from './limiter-test-kit.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const WINDOW = 10_000;
/** 5 tokens, one a second; windows of 10 s. */
const config: SharedBucketConfig = { capacity: 5, refillPerMs: 1 / 1000, perDay: 100, windowMs: WINDOW };

const req = (scope: string, limit: number | null, tokensLeft = 0, slotsLeft = 0): TakeRequest => ({
  scope,
  limit,
  tokensLeft,
  slotsLeft,
});

/** Grants `n` requests of `scope` one after another at `at`, returning the state after them. */
function granted(state: BudgetState, n: number, at: number, request: TakeRequest, c = config): BudgetState {
  let s = state;
  for (let i = 0; i < n; i++) {
    const d = decideTake(s, c, at, [request]);
    expect(d.result.kind).toBe('granted');
    s = d.state;
  }
  return s;
}

describe('decideTake', () => {
  it('grants from a full bucket for a key never seen, and counts the send everywhere', () => {
    const d = decideTake(untouchedBudget, config, T0, [req('getBrands', 3)]);
    expect(d.result).toEqual({ kind: 'granted', index: 0, nowMs: T0, tokensBefore: 5 });
    expect(d.state.bucket).toEqual({ tokens: 4, atMs: T0, pausedUntilMs: null });
    expect(d.state.daily).toEqual({ day: utcDay(T0), count: 1 });
    for (const scope of [KEY_SCOPE, 'getBrands']) {
      expect(d.state.sends.get(scope)?.rows).toEqual([{ atMs: T0, settled: false }]);
    }
    expect(d.changes).toEqual({
      bucket: { tokens: 4, atMs: T0, pausedUntilMs: null },
      daily: { day: utcDay(T0), count: 1, dropEarlierDays: true },
      pauses: [],
      settles: [],
      drops: [
        { scope: KEY_SCOPE, throughMs: T0 - WINDOW },
        { scope: 'getBrands', throughMs: T0 - WINDOW },
      ],
      adds: [
        { scope: KEY_SCOPE, atMs: T0, settled: false },
        { scope: 'getBrands', atMs: T0, settled: false },
      ],
    });
  });

  it('records no endpoint window for a request without one', () => {
    const d = decideTake(untouchedBudget, config, T0, [req('group:brand-writes', null)]);
    expect([...d.state.sends.keys()]).toEqual([KEY_SCOPE]);
    expect(
      takeRead(config, T0, [req('group:brand-writes', null), req('getBrands', 3), req('getBrands', 3, 1)]),
    ).toEqual({ nowMs: T0, sendScopes: ['getBrands'], sendsAfterMs: T0 - WINDOW, inFlightScopes: [] });
  });

  it('waits for the next token once the bucket is spent, a token a second', () => {
    const spent = granted(untouchedBudget, 5, T0, req('x', null));
    expect(decideTake(spent, config, T0, [req('x', null)]).result).toEqual({
      kind: 'wait',
      waitMs: 1000,
      tokensBefore: 0,
    });
    expect(decideTake(spent, config, T0 + 1000, [req('x', null)]).result.kind).toBe('granted');
  });

  it('leaves the tokens a request asks to leave (the background lane’s reserve)', () => {
    const three = granted(untouchedBudget, 2, T0, req('x', null));
    expect(decideTake(three, config, T0, [req('x', null, 3)]).result).toEqual({
      kind: 'wait',
      waitMs: 1000,
      tokensBefore: 3,
    });
    // Never more than the bucket can hold: a reserve above capacity waits for a full bucket.
    expect(decideTake(untouchedBudget, config, T0, [req('x', null, 50)]).result.kind).toBe('granted');
  });

  it('waits for the oldest send of a full window to leave it, leaving the slots asked for', () => {
    const full = granted(untouchedBudget, 2, T0, req('getCitations', 2));
    expect(decideTake(full, config, T0 + 3000, [req('getCitations', 2)]).result).toMatchObject({
      kind: 'wait',
      waitMs: WINDOW - 3000,
    });
    const one = granted(untouchedBudget, 1, T0, req('getCitations', 2));
    expect(decideTake(one, config, T0 + 3000, [req('getCitations', 2, 0, 1)]).result).toMatchObject({
      kind: 'wait',
      waitMs: WINDOW - 3000,
    });
    expect(decideTake(full, config, T0 + WINDOW, [req('getCitations', 2)]).result.kind).toBe('granted');
  });

  it('grants the first request that may go: a paused or full endpoint does not hold up another', () => {
    const full = granted(untouchedBudget, 2, T0, req('getCitations', 2));
    const paused: BudgetState = { ...full, pauses: new Map([['getBrands', T0 + 4000]]) };
    const d = decideTake(paused, config, T0 + 1000, [
      req('getCitations', 2),
      req('getBrands', 3),
      req('x', null),
    ]);
    expect(d.result).toMatchObject({ kind: 'granted', index: 2 });
    const waiting = decideTake(paused, config, T0 + 1000, [req('getCitations', 2), req('getBrands', 3)]);
    // The earliest of the two: the pause ends in 3 s, the window frees in 9 s.
    expect(waiting.result).toMatchObject({ kind: 'wait', waitMs: 3000 });
    expect(isUnchanged(waiting.changes)).toBe(true);
    expect(waiting.state).toBe(paused);
  });

  it('waits out a pause of the whole key before anything else', () => {
    const paused: BudgetState = {
      ...untouchedBudget,
      bucket: { tokens: 0, atMs: T0 + 5000, pausedUntilMs: T0 + 5000 },
    };
    expect(decideTake(paused, config, T0, [req('x', null)]).result).toEqual({ kind: 'wait', waitMs: 5000 });
    // At its end the bucket restarts empty: the first token a second later.
    expect(decideTake(paused, config, T0 + 5000, [req('x', null)]).result).toMatchObject({ waitMs: 1000 });
  });

  it('says the day is spent once it is, until the next UTC midnight', () => {
    const day = { ...config, perDay: 2, capacity: 10 };
    const spent = granted(untouchedBudget, 2, T0, req('x', null), day);
    const d = decideTake(spent, day, T0 + 1, [req('x', null)]);
    expect(d.result).toEqual({ kind: 'quota', resetAt: Date.parse('2026-03-02T00:00:00Z') });
    expect(isUnchanged(d.changes)).toBe(true);
    const tomorrow = decideTake(spent, day, Date.parse('2026-03-02T00:00:00Z'), [req('x', null)]);
    expect(tomorrow.result.kind).toBe('granted');
    expect(tomorrow.changes.daily).toEqual({ day: '2026-03-02', count: 1, dropEarlierDays: true });
    expect(decideTake(spent, day, T0 + 1, [req('x', null)]).state.daily).toEqual({
      day: '2026-03-01',
      count: 2,
    });
  });

  it('forgets the sends older than a window of the logs it writes, and only those', () => {
    const old = granted(untouchedBudget, 2, T0, req('getBrands', 3));
    const d = decideTake(old, config, T0 + WINDOW + 1, [req('getBrands', 3)]);
    expect(d.state.sends.get('getBrands')?.rows).toEqual([{ atMs: T0 + WINDOW + 1, settled: false }]);
    expect(d.changes.drops).toContainEqual({ scope: 'getBrands', throughMs: T0 + 1 });
    expect(d.changes.daily?.dropEarlierDays).toBe(false);
  });
});

// Properties over random sequences of grants and reactions on one state.

const SCOPES = [
  { scope: 'getBrands', limit: 4 },
  { scope: 'getCitations', limit: 2 },
  { scope: 'group:brand-writes', limit: null },
] as const;

type Lane = 'interactive' | 'background';

type Step =
  | { dt: number; kind: 'take'; waiting: { s: number; lane: Lane }[]; reserve: number }
  | { dt: number; kind: 'react'; s: number; writes: BudgetWrite[] };

const write: fc.Arbitrary<BudgetWrite> = fc.oneof(
  fc.record({
    op: fc.constant('pauseKey' as const),
    untilMs: fc.integer({ min: 0, max: 3000 }),
    restartEmpty: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('pauseScope' as const),
    untilMs: fc.integer({ min: 0, max: 3000 }),
    drain: fc.boolean(),
  }),
  fc.record({ op: fc.constant('lowerTokens' as const), atMost: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ op: fc.constant('spendTokens' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.constant({ op: 'markDaySpent' as const }),
);

/** Mostly bursts (no time between decisions), sometimes a pause long enough to refill. */
const gap = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 4000 }) },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      dt: gap,
      kind: fc.constant('take' as const),
      waiting: fc.array(
        fc.record({
          s: fc.integer({ min: 0, max: 2 }),
          lane: fc.constantFrom<Lane>('interactive', 'background'),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      reserve: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      dt: gap,
      kind: fc.constant('react' as const),
      s: fc.integer({ min: 0, max: 2 }),
      writes: fc.array(write, { maxLength: 2 }),
    }),
  },
);

/** The heads of the lanes as the limiter asks for them: interactive first, background with its reserve. */
function requestsOf(s: Extract<Step, { kind: 'take' }>): (TakeRequest & { lane: Lane })[] {
  const heads = s.waiting.map(({ s: i, lane }) => ({
    ...req(
      SCOPES[i]!.scope,
      SCOPES[i]!.limit,
      lane === 'background' ? s.reserve : 0,
      lane === 'background' ? 1 : 0,
    ),
    lane,
  }));
  return [...heads.filter((h) => h.lane === 'interactive'), ...heads.filter((h) => h.lane === 'background')];
}

interface Grant {
  atMs: number;
  scope: string;
}

/** Runs the steps from T0 on one state; `check` sees every grant decision as it is made. */
function run(
  steps: readonly Step[],
  c: SharedBucketConfig,
  check: (
    before: BudgetState,
    nowMs: number,
    requests: TakeRequest[],
    after: ReturnType<typeof decideTake>,
  ) => void = () => {},
  start = T0,
) {
  let state = untouchedBudget;
  let now = start;
  const grants: Grant[] = [];
  for (const s of steps) {
    now += s.dt;
    if (s.kind === 'take') {
      const requests = requestsOf(s);
      const d = decideTake(state, c, now, requests);
      check(state, now, requests, d);
      if (d.result.kind === 'granted') grants.push({ atMs: now, scope: requests[d.result.index]!.scope });
      state = d.state;
    } else {
      const { scope, limit } = SCOPES[s.s]!;
      const writes = s.writes.map((w) => ('untilMs' in w ? { ...w, untilMs: now + w.untilMs } : w));
      state = decideReaction(state, c, { scope, limit, nowMs: now, headerSinceMs: null }, () => writes).state;
    }
  }
  return { grants, state, now };
}

const steps = fc.array(step, { minLength: 1, maxLength: 80 });

describe('decideTake, over any sequence of grants and reactions', () => {
  const noDay = { ...config, perDay: null };

  it('never grants more than the bucket holds plus what refilled', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { grants } = run(s, noDay);
        const times = grants.map((g) => g.atMs);
        expect(worstBucketExcess(times, noDay.capacity, noDay.refillPerMs, 1e-6)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });

  it('never grants more of an endpoint than its window allows, answers and pauses included', () => {
    fc.assert(
      fc.property(steps, (s) => {
        const { grants } = run(s, noDay);
        for (const { scope, limit } of SCOPES) {
          if (limit === null) continue;
          const times = grants.filter((g) => g.scope === scope).map((g) => g.atMs);
          expect(maxInAnyWindow(times, WINDOW)).toBeLessThanOrEqual(limit);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('grants the first request that may go, so a person’s call goes before the jobs’', () => {
    fc.assert(
      fc.property(steps, (s) => {
        run(s, noDay, (before, now, requests, d) => {
          const alone = requests.map((r) => decideTake(before, noDay, now, [r]).result.kind === 'granted');
          const first = alone.indexOf(true);
          if (first === -1) expect(d.result.kind).toBe('wait');
          else expect(d.result).toMatchObject({ kind: 'granted', index: first });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a job’s grant always leaves room for one person’s call to the same endpoint', () => {
    fc.assert(
      fc.property(steps, (s) => {
        run(s, noDay, (_before, now, requests, d) => {
          if (d.result.kind !== 'granted') return;
          const r = requests[d.result.index] as TakeRequest & { lane: Lane };
          if (r.lane !== 'background') return;
          const person = decideTake(d.state, noDay, now, [req(r.scope, r.limit)]);
          expect(person.result.kind).toBe('granted');
        });
      }),
      { numRuns: 300 },
    );
  });

  it('counts the day exactly, across UTC midnight, and stops at the daily limit', () => {
    const day = { ...config, perDay: 6, capacity: 4 };
    const start = Date.parse('2026-03-01T23:59:40Z');
    fc.assert(
      fc.property(steps, (s) => {
        const grantsOn = new Map<string, number>();
        const spentOn = new Set<string>();
        let state = untouchedBudget;
        let now = start;
        for (const x of s) {
          now += x.dt;
          const today = utcDay(now);
          const used = spentOn.has(today)
            ? Math.max(grantsOn.get(today) ?? 0, 6)
            : (grantsOn.get(today) ?? 0);
          expect(snapshotOf(state, day, now).usedToday).toBe(used);
          if (x.kind === 'take') {
            const d = decideTake(state, day, now, requestsOf(x));
            expect(d.result.kind === 'quota').toBe(used >= 6);
            if (d.result.kind === 'granted') grantsOn.set(today, (grantsOn.get(today) ?? 0) + 1);
            state = d.state;
          } else {
            const { scope, limit } = SCOPES[x.s]!;
            const writes = x.writes.filter((w) => w.op === 'markDaySpent' || w.op === 'spendTokens');
            if (writes.some((w) => w.op === 'markDaySpent')) spentOn.add(today);
            state = decideReaction(
              state,
              day,
              { scope, limit, nowMs: now, headerSinceMs: null },
              () => writes,
            ).state;
          }
          expect(grantsOn.get(today) ?? 0).toBeLessThanOrEqual(6);
        }
      }),
      { numRuns: 300 },
    );
  });
});
