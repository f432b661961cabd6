/**
 * The key's shared budget on Postgres. First, the same scripted and random sequences of
 * grants, pauses, settles and daily counts on the SQLite store and on the Postgres store
 * give the same answers (same semantics, only the storage differs). Then several stores
 * with pools of their own (replicas) asking at once on one database never grant more than
 * the bucket, the endpoint window or the day allows.
 */
import { describe, expect, it } from 'vitest';
import type { BudgetWrite, ReactionFacts, ReactionQuery } from '../../../src/api/limiter/budget-store.js';
import {
  type SharedBucketConfig,
  SharedBucketStore,
  type TakeRequest,
  type TakeResult,
} from '../../../src/api/limiter/shared-bucket-store.js';
import { migrations } from '../../../src/store/migrations/index.js';
import { openDatabase } from '../../../src/store/open-database.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { PgSharedBucketStore } from '../../../src/store/postgres/pg-shared-bucket-store.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';

const pg = usePostgresDatabase();
const T0 = Date.parse('2026-03-01T23:58:00Z');
const WINDOW = 60_000;

let keys = 0;
/** A key of its own per test: the tests share one database. */
const newKey = () => `key-${++keys}-${Math.random().toString(36).slice(2)}`;

async function migrated() {
  const pool = pg.pool({ max: 2 });
  await migratePostgres(pool, migrations);
  return pool;
}

const req = (scope: string, limit: number | null, tokensLeft = 0, slotsLeft = 0): TakeRequest => ({
  scope,
  limit,
  tokensLeft,
  slotsLeft,
});

type Op =
  | { op: 'take'; at: number; requests: TakeRequest[] }
  | { op: 'pauseKey'; at: number; until: number; empty: boolean }
  | { op: 'pauseScope'; at: number; scope: string; until: number; limit: number | null }
  | { op: 'lower'; at: number; atMost: number }
  | { op: 'spend'; at: number; count: number }
  | { op: 'settle'; at: number; scope: string }
  | { op: 'since'; at: number; scope: string }
  | { op: 'daySpent'; at: number }
  | { op: 'snapshot'; at: number }
  | { op: 'react'; query: ReactionQuery; writes: BudgetWrite[] };

/** Runs one op on the SQLite store (sync) or the Postgres store (async) alike. */
async function apply(store: SharedBucketStore | PgSharedBucketStore, o: Op): Promise<unknown> {
  switch (o.op) {
    case 'take':
      return (await store.takeFirst(() => o.at, o.requests)) as TakeResult;
    case 'pauseKey':
      return store.pauseKey(o.at, o.until, o.empty);
    case 'pauseScope':
      return store.pauseScope(o.scope, o.until, o.limit, o.at);
    case 'lower':
      return store.lowerTokens(o.at, o.atMost);
    case 'spend':
      return store.spendTokens(o.at, o.count);
    case 'settle':
      return store.settleSend(o.scope, o.at);
    case 'since':
      return store.sendsSince(o.scope, o.at - WINDOW);
    case 'daySpent':
      return store.markDaySpent(o.at);
    case 'snapshot': {
      const s = await store.snapshot(o.at);
      return { ...s, scopePauses: Object.fromEntries(s.scopePauses) };
    }
    case 'react': {
      const seen: ReactionFacts[] = [];
      await store.react(o.query, (facts) => {
        seen.push(facts);
        return o.writes;
      });
      return seen;
    }
  }
}

/** A seeded generator (mulberry32): the same sequence on every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomOps(seed: number, count: number): Op[] {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const scopes = ['getBrands', 'getCitations', 'group:brand-writes'];
  const limits = [2, 3, null];
  let at = T0;
  const ops: Op[] = [];
  for (let i = 0; i < count; i++) {
    // Mostly small steps, sometimes across a window or the UTC midnight.
    at += Math.floor(rnd() < 0.9 ? rnd() * 900 : rnd() * 70_000);
    const r = rnd();
    const scopeIndex = Math.floor(rnd() * scopes.length);
    const scope = scopes[scopeIndex]!;
    if (r < 0.6) {
      const n = 1 + Math.floor(rnd() * 3);
      ops.push({
        op: 'take',
        at,
        requests: Array.from({ length: n }, () => {
          const k = Math.floor(rnd() * scopes.length);
          return req(scopes[k]!, limits[k]!, pick([0, 0, 1, 3]), pick([0, 0, 1]));
        }),
      });
    } else if (r < 0.68) ops.push({ op: 'settle', at, scope });
    else if (r < 0.74) ops.push({ op: 'since', at, scope });
    else if (r < 0.8) ops.push({ op: 'snapshot', at });
    else if (r < 0.85)
      ops.push({ op: 'pauseKey', at, until: at + Math.floor(rnd() * 5000), empty: rnd() < 0.5 });
    else if (r < 0.9)
      ops.push({
        op: 'pauseScope',
        at,
        scope,
        until: at + Math.floor(rnd() * 5000),
        limit: limits[scopeIndex]!,
      });
    else if (r < 0.93) ops.push({ op: 'lower', at, atMost: Math.floor(rnd() * 4) });
    else if (r < 0.96) ops.push({ op: 'spend', at, count: 1 + Math.floor(rnd() * 3) });
    else ops.push({ op: 'daySpent', at });
  }
  return ops;
}

async function sameAnswers(config: SharedBucketConfig, ops: readonly Op[]) {
  const pool = await migrated();
  const sqlite = openDatabase(':memory:');
  try {
    const key = newKey();
    const a = new SharedBucketStore(sqlite, key, config);
    const b = new PgSharedBucketStore(pool, key, config);
    const answers: { op: Op; sqlite: unknown; postgres: unknown }[] = [];
    for (const o of ops) answers.push({ op: o, sqlite: await apply(a, o), postgres: await apply(b, o) });
    for (const x of answers) expect({ op: x.op, answer: x.postgres }).toEqual({ op: x.op, answer: x.sqlite });
    return answers;
  } finally {
    sqlite.close();
  }
}

describe('PgSharedBucketStore: the SQLite store semantics', () => {
  const config: SharedBucketConfig = { capacity: 5, refillPerMs: 1 / 1000, perDay: 40, windowMs: WINDOW };

  it('grants, waits, pauses, settles and counts the day as the SQLite store does (scripted)', async () => {
    const ops: Op[] = [
      ...Array.from(
        { length: 7 },
        (_, i): Op => ({ op: 'take', at: T0 + i, requests: [req('getBrands', 3)] }),
      ),
      { op: 'take', at: T0 + 10, requests: [req('getBrands', 3), req('other', null)] },
      { op: 'settle', at: T0 + 200, scope: 'getBrands' },
      { op: 'since', at: T0 + 300, scope: 'key' },
      { op: 'pauseScope', at: T0 + 400, scope: 'getBrands', until: T0 + 5_000, limit: 3 },
      // A shorter pause does not cut a longer one short.
      { op: 'pauseScope', at: T0 + 450, scope: 'group:brand-writes', until: T0 + 6_000, limit: null },
      { op: 'pauseScope', at: T0 + 500, scope: 'group:brand-writes', until: T0 + 2_000, limit: null },
      { op: 'take', at: T0 + 3_000, requests: [req('group:brand-writes', null)] },
      { op: 'take', at: T0 + 4_000, requests: [req('getBrands', 3)] },
      { op: 'pauseKey', at: T0 + 4_100, until: T0 + 9_000, empty: true },
      { op: 'take', at: T0 + 8_000, requests: [req('other', null)] },
      { op: 'snapshot', at: T0 + 8_500 },
      { op: 'take', at: T0 + 10_500, requests: [req('other', null, 1)] },
      { op: 'lower', at: T0 + 20_000, atMost: 1 },
      { op: 'spend', at: T0 + 20_000, count: 3 },
      { op: 'snapshot', at: T0 + 20_001 },
      // Across UTC midnight: yesterday's count no longer applies.
      { op: 'daySpent', at: T0 + 30_000 },
      { op: 'take', at: T0 + 31_000, requests: [req('other', null)] },
      { op: 'take', at: T0 + 130_000, requests: [req('other', null)] },
      { op: 'snapshot', at: T0 + 130_001 },
    ];
    const answers = await sameAnswers(config, ops);
    const kinds = answers.filter((a) => a.op.op === 'take').map((a) => (a.postgres as TakeResult).kind);
    // The scenario really visits every outcome.
    expect(new Set(kinds)).toEqual(new Set(['granted', 'wait', 'quota']));
  });

  it('reacts to responses as the SQLite store does: settles, reads the facts, applies the writes', async () => {
    const react = (
      at: number,
      scope: string,
      limit: number | null,
      headerSinceMs: number | null,
      writes: BudgetWrite[],
    ): Op => ({
      op: 'react',
      query: { scope, limit, nowMs: at, headerSinceMs },
      writes,
    });
    const ops: Op[] = [
      ...Array.from(
        { length: 4 },
        (_, i): Op => ({ op: 'take', at: T0 + i, requests: [req('getBrands', 3)] }),
      ),
      { op: 'take', at: T0 + 5, requests: [req('other', null)] },
      react(T0 + 100, 'getBrands', 3, null, []),
      react(T0 + 200, 'getBrands', 3, T0 - 30_000, [{ op: 'lowerTokens', atMost: 1 }]),
      react(T0 + 300, 'other', null, T0, [{ op: 'spendTokens', count: 1 }]),
      { op: 'snapshot', at: T0 + 301 },
      react(T0 + 400, 'getBrands', 3, null, [
        { op: 'pauseScope', scope: 'getBrands', untilMs: T0 + 5_000, limit: 3 },
        { op: 'pauseKey', untilMs: T0 + 2_000, restartEmpty: true },
      ]),
      { op: 'snapshot', at: T0 + 401 },
      { op: 'take', at: T0 + 3_000, requests: [req('getBrands', 3), req('other', null)] },
      { op: 'take', at: T0 + 6_000, requests: [req('getBrands', 3)] },
      react(T0 + 6_100, 'getBrands', 3, T0 + 5_000, [
        { op: 'pauseKey', untilMs: T0 + 7_000, restartEmpty: false },
      ]),
      react(T0 + 6_200, 'getBrands', 3, null, [{ op: 'markDaySpent' }]),
      { op: 'take', at: T0 + 8_000, requests: [req('other', null)] },
      { op: 'snapshot', at: T0 + 8_001 },
    ];
    const answers = await sameAnswers(config, ops);
    const facts = answers.filter((a) => a.op.op === 'react').map((a) => (a.postgres as ReactionFacts[])[0]!);
    // The facts are really read: settled sends counted, the bucket lowered by a write.
    expect(facts[1]).toMatchObject({ scopeSends: 3, headerSends: { scope: 3, key: 4 } });
    expect(facts[2]!.tokens).toBeCloseTo(1.1);
    expect((answers.at(-2)!.postgres as TakeResult).kind).toBe('quota');
  });

  it.each([1, 2, 3])('agrees with the SQLite store on a random sequence (seed %i)', async (seed) => {
    const answers = await sameAnswers({ ...config, perDay: 25 }, randomOps(seed, 150));
    expect(answers.some((a) => (a.postgres as TakeResult | undefined)?.kind === 'granted')).toBe(true);
  });
});

describe('PgSharedBucketStore: replicas on one database', () => {
  /** `replicas` stores, each with its own pool, each asking `attempts` times at once. */
  async function race(
    config: SharedBucketConfig,
    replicas: number,
    attempts: number,
    requests: TakeRequest[],
  ) {
    await migrated();
    const key = newKey();
    const stores = Array.from(
      { length: replicas },
      () => new PgSharedBucketStore(pg.pool({ max: 3 }), key, config),
    );
    const results = await Promise.all(
      stores.flatMap((s) => Array.from({ length: attempts }, () => s.takeFirst(() => T0, requests))),
    );
    return { results, stores, granted: results.filter((r) => r.kind === 'granted').length };
  }

  it('never grant more than the bucket holds', async () => {
    const { granted, results } = await race(
      { capacity: 10, refillPerMs: 0, perDay: null, windowMs: WINDOW },
      4,
      8,
      [req('getBrands', null)],
    );
    expect(results).toHaveLength(32);
    expect(granted).toBe(10);
  });

  it('never grant more than an endpoint window allows, and count every grant', async () => {
    const { granted, stores } = await race(
      { capacity: 100, refillPerMs: 0, perDay: null, windowMs: WINDOW },
      4,
      6,
      [req('getCitations', 5)],
    );
    expect(granted).toBe(5);
    expect(await stores[0]!.sendsSince('getCitations', T0 - WINDOW)).toBe(5);
    expect(await stores[1]!.sendsSince('key', T0 - WINDOW)).toBe(5);
    expect((await stores[2]!.snapshot(T0)).tokens).toBe(95);
  });

  it('never grant more than the day allows', async () => {
    const { granted, results } = await race(
      { capacity: 100, refillPerMs: 0, perDay: 7, windowMs: WINDOW },
      3,
      5,
      [req('getBrands', null)],
    );
    expect(granted).toBe(7);
    expect(results.filter((r) => r.kind === 'quota')).toHaveLength(8);
  });

  it('a pause set by one replica holds the others', async () => {
    await migrated();
    const key = newKey();
    const config = { capacity: 10, refillPerMs: 1 / 1000, perDay: null, windowMs: WINDOW };
    const one = new PgSharedBucketStore(pg.pool({ max: 1 }), key, config);
    const other = new PgSharedBucketStore(pg.pool({ max: 1 }), key, config);
    await one.atomically(async (tx) => {
      await tx.pauseKey(T0, T0 + 30_000, true);
      await tx.pauseScope('getBrands', T0 + 45_000, null, T0);
      expect(await tx.sendsSince('key', T0 - WINDOW)).toBe(0);
    });
    expect(await other.takeFirst(() => T0 + 1000, [req('getBrands', null)])).toEqual({
      kind: 'wait',
      waitMs: 29_000,
    });
    // After the key's pause the bucket restarts empty: one token a second.
    expect(await other.takeFirst(() => T0 + 30_000, [req('x', null)])).toMatchObject({
      kind: 'wait',
      waitMs: 1000,
    });
    expect(await other.takeFirst(() => T0 + 31_000, [req('getBrands', null), req('x', null)])).toMatchObject({
      kind: 'granted',
      index: 1,
    });
  });
});
