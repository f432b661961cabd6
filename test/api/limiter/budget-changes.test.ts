/**
 * What a persistence writes back after a decision, from states shaped as a persistence
 * reads them (stored sends carry their row id): only what changed, and never one row
 * touched twice, since Postgres runs all of it on one snapshot.
 */
import { describe, expect, it } from 'vitest';
import { ALL_SENDS_MS, budgetChanges, isUnchanged } from '../../../src/api/limiter/budget-changes.js';
import type { BudgetState, SendRow } from '../../../src/api/limiter/budget-state.js';
import { KEY_SCOPE, type SharedBucketConfig } from '../../../src/api/limiter/budget-store.js';
import { decideReaction } from '../../../src/api/limiter/decide-reaction.js';
import { decideTake } from '../../../src/api/limiter/decide-take.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const config: SharedBucketConfig = { capacity: 10, refillPerMs: 1 / 1000, perDay: 100, windowMs: 10_000 };

/** A state as read: two sends of getBrands (the first answered) and the key's two. */
function read(rows: Record<string, SendRow[]> = {}): BudgetState {
  return {
    bucket: { tokens: 8, atMs: T0 + 1, pausedUntilMs: null },
    daily: { day: '2026-03-01', count: 2 },
    pauses: new Map([['getCitations', T0 - 5_000]]),
    sends: new Map(
      Object.entries({
        getBrands: [
          { id: 11, atMs: T0 + 200, settled: true },
          { id: 12, atMs: T0 + 1, settled: false },
        ].sort((a, b) => a.atMs - b.atMs),
        [KEY_SCOPE]: [
          { id: 1, atMs: T0, settled: false },
          { id: 2, atMs: T0 + 1, settled: false },
        ],
        ...rows,
      }).map(([scope, r]) => [scope, { rows: r }]),
    ),
  };
}

const reaction = (state: BudgetState, nowMs: number, writes: Parameters<typeof decideReaction>[3]) =>
  decideReaction(state, config, { scope: 'getBrands', limit: 3, nowMs, headerSinceMs: null }, writes);

describe('budgetChanges', () => {
  it('is empty when a decision changes nothing', () => {
    const state = read();
    expect(isUnchanged(budgetChanges(state, state))).toBe(true);
    expect(
      isUnchanged(
        decideTake(state, { ...config, perDay: 2 }, T0 + 5, [
          { scope: 'x', limit: null, tokensLeft: 0, slotsLeft: 0 },
        ]).changes,
      ),
    ).toBe(true);
  });

  it('a grant: the bucket, the day’s count, old sends dropped, the new ones added', () => {
    const d = decideTake(read(), config, T0 + 1_000, [
      { scope: 'getBrands', limit: 3, tokensLeft: 0, slotsLeft: 0 },
    ]);
    expect(d.changes).toEqual({
      bucket: { tokens: 8 + 0.999 - 1, atMs: T0 + 1_000, pausedUntilMs: null },
      daily: { day: '2026-03-01', count: 3, dropEarlierDays: false },
      pauses: [],
      settles: [],
      drops: [
        { scope: 'getBrands', throughMs: T0 + 1_000 - 10_000 },
        { scope: KEY_SCOPE, throughMs: T0 + 1_000 - 10_000 },
      ],
      adds: [
        { scope: 'getBrands', atMs: T0 + 1_000, settled: false },
        { scope: KEY_SCOPE, atMs: T0 + 1_000, settled: false },
      ],
    });
  });

  it('a response: the stored sends it answers are settled by id, nothing else is written', () => {
    const d = reaction(read(), T0 + 300, () => []);
    expect(d.changes).toEqual({
      bucket: undefined,
      daily: undefined,
      pauses: [],
      settles: [
        { id: 12, atMs: T0 + 300 },
        { id: 1, atMs: T0 + 300 },
      ],
      drops: [],
      adds: [],
    });
  });

  it('a drain after a 429 replaces the window: its answered send is not settled apart, the key’s is', () => {
    const d = reaction(read(), T0 + 300, () => [{ op: 'pauseScope', untilMs: T0 + 5_000, drain: true }]);
    expect(d.changes.settles).toEqual([{ id: 1, atMs: T0 + 300 }]);
    expect(d.changes.drops).toEqual([{ scope: 'getBrands', throughMs: ALL_SENDS_MS }]);
    expect(d.changes.adds.map((a) => a.scope)).toEqual(['getBrands', 'getBrands', 'getBrands']);
    expect(d.changes.adds.every((a) => a.settled)).toBe(true);
    expect(d.changes.pauses).toEqual([['getBrands', T0 + 5_000]]);
  });

  it('a stored send the drop would delete but the decision keeps is written anew', () => {
    const before = read();
    const after: BudgetState = {
      ...before,
      sends: new Map(before.sends).set(KEY_SCOPE, {
        rows: [
          { id: 1, atMs: T0 + 500, settled: true },
          { id: 2, atMs: T0 + 1, settled: false },
        ],
        dropThroughMs: T0,
      }),
    };
    const c = budgetChanges(before, after);
    expect(c.settles).toEqual([]);
    expect(c.drops).toEqual([{ scope: KEY_SCOPE, throughMs: T0 }]);
    expect(c.adds).toEqual([{ scope: KEY_SCOPE, atMs: T0 + 500, settled: true }]);
  });

  it('writes the day’s count with the earlier days dropped on its first count only', () => {
    const before = read();
    const next = budgetChanges(before, { ...before, daily: { day: '2026-03-02', count: 1 } });
    expect(next.daily).toEqual({ day: '2026-03-02', count: 1, dropEarlierDays: true });
    const same = budgetChanges(before, { ...before, daily: { day: '2026-03-01', count: 3 } });
    expect(same.daily).toEqual({ day: '2026-03-01', count: 3, dropEarlierDays: false });
  });

  it('refuses a decision that loses a send without dropping it, or unsettles one', () => {
    const before = read();
    const lost = {
      ...before,
      sends: new Map(before.sends).set(KEY_SCOPE, { rows: [before.sends.get(KEY_SCOPE)!.rows[1]!] }),
    };
    expect(() => budgetChanges(before, lost)).toThrow('removed a send');
    const unsettled = {
      ...before,
      sends: new Map(before.sends).set('getBrands', {
        rows: before.sends.get('getBrands')!.rows.map((r) => ({ ...r, settled: false })),
      }),
    };
    expect(() => budgetChanges(before, unsettled)).toThrow('never unsettle');
  });
});
