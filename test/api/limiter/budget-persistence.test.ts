/**
 * The budget's two persistences (SQLite, Postgres) are transparent: the same scripted and
 * random sequences of grants, reactions and reads give the same answers on each as the
 * decisions chained on one complete state in memory (budget-model.ts), although each
 * decision reads only part of the rows and writes back only what changed. Then replicas
 * on Postgres (stores with pools of their own) asking at once never grant more than the
 * bucket, the endpoint window or the day allows, and a reaction that only settles never
 * waits for the key's lock, and each decision costs the same few round trips.
 */
import { describe, expect, it } from 'vitest';
import type {
  BudgetStore,
  BudgetWrite,
  ReactionFacts,
  ReactionQuery,
  SharedBucketConfig,
  TakeRequest,
  TakeResult,
} from '../../../src/api/limiter/budget-store.js';
import { migrations } from '../../../src/store/migrations/index.js';
import type { PgPool } from '../../../src/store/postgres/create-pool.js';
import { migratePostgres } from '../../../src/store/postgres/migrate-postgres.js';
import { createPgBudgetStore } from '../../../src/store/postgres/pg-budget-store.js';
import { createSqliteBudgetStore } from '../../../src/store/sqlite-budget-store.js';
import { usePostgresDatabase } from '../../helpers/postgres-database.js';
import { modelBudget } from './budget-model.js';
import { tempDb } from './limiter-test-kit.js';

const pg = usePostgresDatabase();
const T0 = Date.parse('2026-03-01T23:58:00Z');
const WINDOW = 60_000;

let keys = 0;
/** A key of its own per test: the tests share one database. */
const newKey = () => `key-${++keys}-${Math.random().toString(36).slice(2)}`;

async function migrated(): Promise<PgPool> {
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
  | { op: 'react'; query: ReactionQuery; writes: BudgetWrite[] }
  | { op: 'snapshot'; at: number };

const react = (
  at: number,
  scope: string,
  limit: number | null,
  writes: BudgetWrite[] = [],
  headerSinceMs: number | null = null,
): Op => ({ op: 'react', query: { scope, limit, nowMs: at, headerSinceMs }, writes });

/** Runs one op; a reaction answers with the facts its decision was given. */
async function apply(store: BudgetStore, o: Op): Promise<unknown> {
  switch (o.op) {
    case 'take':
      return store.takeFirst(() => o.at, o.requests);
    case 'react': {
      const seen: ReactionFacts[] = [];
      await store.react(o.query, (facts) => {
        seen.push(facts);
        return o.writes;
      });
      return seen;
    }
    case 'snapshot': {
      const s = await store.snapshot(o.at);
      return { ...s, scopePauses: Object.fromEntries(s.scopePauses) };
    }
  }
}

/** The answers of the model, the SQLite store and the Postgres store to the same ops. */
async function sameAnswers(config: SharedBucketConfig, ops: readonly Op[]) {
  const pool = await migrated();
  const file = tempDb();
  try {
    const key = newKey();
    const stores = {
      model: modelBudget(config),
      sqlite: createSqliteBudgetStore(file.open(), key, config),
      postgres: createPgBudgetStore(pool, key, config),
    };
    const answers: { op: Op; model: unknown; sqlite: unknown; postgres: unknown }[] = [];
    for (const o of ops) {
      answers.push({
        op: o,
        model: await apply(stores.model, o),
        sqlite: await apply(stores.sqlite, o),
        postgres: await apply(stores.postgres, o),
      });
    }
    for (const x of answers) {
      expect({ op: x.op, sqlite: x.sqlite, postgres: x.postgres }).toEqual({
        op: x.op,
        sqlite: x.model,
        postgres: x.model,
      });
    }
    return answers;
  } finally {
    file.cleanup();
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

const SCOPES = ['getBrands', 'getCitations', 'group:brand-writes'] as const;
const LIMITS = [2, 3, null] as const;

function randomWrites(rnd: () => number, at: number): BudgetWrite[] {
  const all: BudgetWrite[] = [
    { op: 'pauseKey', untilMs: at + Math.floor(rnd() * 5000), restartEmpty: rnd() < 0.5 },
    { op: 'pauseScope', untilMs: at + Math.floor(rnd() * 5000), drain: rnd() < 0.6 },
    { op: 'lowerTokens', atMost: Math.floor(rnd() * 4) },
    { op: 'spendTokens', count: 1 + Math.floor(rnd() * 3) },
    { op: 'markDaySpent' },
  ];
  return all.filter(() => rnd() < 0.2);
}

function randomOps(seed: number, count: number): Op[] {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  let at = T0;
  const ops: Op[] = [];
  for (let i = 0; i < count; i++) {
    // Mostly small steps, sometimes across a window or the UTC midnight.
    at += Math.floor(rnd() < 0.9 ? rnd() * 900 : rnd() * 70_000);
    const r = rnd();
    const k = Math.floor(rnd() * SCOPES.length);
    if (r < 0.55) {
      const requests = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => {
        const j = Math.floor(rnd() * SCOPES.length);
        return req(SCOPES[j]!, LIMITS[j]!, pick([0, 0, 1, 3]), pick([0, 0, 1]));
      });
      ops.push({ op: 'take', at, requests });
    } else if (r < 0.92) {
      const since = rnd() < 0.4 ? at - Math.floor(rnd() * WINDOW) : null;
      ops.push(react(at, SCOPES[k]!, LIMITS[k]!, randomWrites(rnd, at), since));
    } else ops.push({ op: 'snapshot', at });
  }
  return ops;
}

describe('the budget persisted: SQLite and Postgres answer as the decisions on one state do', () => {
  const config: SharedBucketConfig = { capacity: 5, refillPerMs: 1 / 1000, perDay: 40, windowMs: WINDOW };

  it('grants, waits, pauses and counts the day alike (scripted)', async () => {
    const ops: Op[] = [
      ...Array.from(
        { length: 7 },
        (_, i): Op => ({ op: 'take', at: T0 + i, requests: [req('getBrands', 3)] }),
      ),
      { op: 'take', at: T0 + 10, requests: [req('getBrands', 3), req('other', null)] },
      react(T0 + 200, 'getBrands', 3),
      react(T0 + 300, 'other', null, [], T0),
      react(T0 + 400, 'getBrands', 3, [{ op: 'pauseScope', untilMs: T0 + 5_000, drain: true }]),
      // A shorter pause does not cut a longer one short.
      react(T0 + 450, 'group:brand-writes', null, [{ op: 'pauseScope', untilMs: T0 + 6_000, drain: false }]),
      react(T0 + 500, 'group:brand-writes', null, [{ op: 'pauseScope', untilMs: T0 + 2_000, drain: false }]),
      { op: 'take', at: T0 + 3_000, requests: [req('group:brand-writes', null)] },
      { op: 'take', at: T0 + 4_000, requests: [req('getBrands', 3)] },
      react(T0 + 4_100, 'other', null, [{ op: 'pauseKey', untilMs: T0 + 9_000, restartEmpty: true }]),
      { op: 'take', at: T0 + 8_000, requests: [req('other', null)] },
      { op: 'snapshot', at: T0 + 8_500 },
      { op: 'take', at: T0 + 10_500, requests: [req('other', null, 1)] },
      react(T0 + 20_000, 'other', null, [
        { op: 'lowerTokens', atMost: 1 },
        { op: 'spendTokens', count: 3 },
      ]),
      { op: 'snapshot', at: T0 + 20_001 },
      react(T0 + 30_000, 'other', null, [{ op: 'markDaySpent' }]),
      { op: 'take', at: T0 + 31_000, requests: [req('other', null)] },
      // Across UTC midnight: yesterday's count no longer applies.
      { op: 'take', at: T0 + 130_000, requests: [req('other', null)] },
      { op: 'snapshot', at: T0 + 130_001 },
    ];
    const answers = await sameAnswers(config, ops);
    const kinds = answers.filter((a) => a.op.op === 'take').map((a) => (a.postgres as TakeResult).kind);
    // The scenario really visits every outcome.
    expect(new Set(kinds)).toEqual(new Set(['granted', 'wait', 'quota']));
    const lastDay = answers.at(-1)!.postgres as { usedToday: number; tokens: number };
    expect(lastDay.usedToday).toBe(1);
    expect(lastDay.tokens).toBeCloseTo(4.001);
  });

  it('settles, reads the facts and applies the writes of reactions alike', async () => {
    const ops: Op[] = [
      ...Array.from(
        { length: 4 },
        (_, i): Op => ({ op: 'take', at: T0 + i, requests: [req('getBrands', 3)] }),
      ),
      { op: 'take', at: T0 + 5, requests: [req('other', null)] },
      react(T0 + 100, 'getBrands', 3),
      react(T0 + 200, 'getBrands', 3, [{ op: 'lowerTokens', atMost: 1 }], T0 - 30_000),
      react(T0 + 300, 'other', null, [{ op: 'spendTokens', count: 1 }], T0),
      { op: 'snapshot', at: T0 + 301 },
      react(T0 + 400, 'getBrands', 3, [
        { op: 'pauseScope', untilMs: T0 + 5_000, drain: true },
        { op: 'pauseKey', untilMs: T0 + 2_000, restartEmpty: true },
      ]),
      { op: 'snapshot', at: T0 + 401 },
      { op: 'take', at: T0 + 3_000, requests: [req('getBrands', 3), req('other', null)] },
      { op: 'take', at: T0 + 6_000, requests: [req('getBrands', 3)] },
      react(
        T0 + 6_100,
        'getBrands',
        3,
        [{ op: 'pauseKey', untilMs: T0 + 7_000, restartEmpty: false }],
        T0 + 5_000,
      ),
      react(T0 + 6_200, 'getBrands', 3, [{ op: 'markDaySpent' }]),
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

  it.each([1, 2, 3, 4])('agree on a random sequence (seed %i)', async (seed) => {
    const answers = await sameAnswers({ ...config, perDay: 25 }, randomOps(seed, 150));
    const kinds = new Set(answers.map((a) => (a.postgres as TakeResult | undefined)?.kind));
    expect(kinds).toContain('granted');
    expect([...kinds].filter((k) => k === 'wait' || k === 'quota').length).toBeGreaterThan(0);
  });
});

describe('replicas on one Postgres database', () => {
  /** `replicas` stores, each with its own pool, each asking `attempts` times at once. */
  async function race(
    config: SharedBucketConfig,
    replicas: number,
    attempts: number,
    requests: TakeRequest[],
  ) {
    await migrated();
    const key = newKey();
    const stores = Array.from({ length: replicas }, () =>
      createPgBudgetStore(pg.pool({ max: 3 }), key, config),
    );
    const results = await Promise.all(
      stores.flatMap((s) => Array.from({ length: attempts }, () => s.takeFirst(() => T0, requests))),
    );
    return { results, stores, granted: results.filter((r) => r.kind === 'granted').length };
  }

  /** What a reaction at `at` reads: sends of the window and since `sinceMs`, and the tokens. */
  async function factsOf(
    store: BudgetStore,
    scope: string,
    limit: number | null,
    at: number,
    sinceMs: number,
  ) {
    let facts: ReactionFacts | undefined;
    await store.react({ scope, limit, nowMs: at, headerSinceMs: sinceMs }, (f) => {
      facts = f;
      return [];
    });
    return facts!;
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
    // Read before any send is answered: the window holds the five grants, so does the key.
    expect(await factsOf(stores[0]!, 'getCitations', null, T0, T0 - 1)).toEqual({
      scopeSends: 0,
      tokens: 95,
      headerSends: { scope: 5, key: 5 },
    });
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
    const one = createPgBudgetStore(pg.pool({ max: 1 }), key, config);
    const other = createPgBudgetStore(pg.pool({ max: 1 }), key, config);
    await one.react({ scope: 'getBrands', limit: null, nowMs: T0, headerSinceMs: null }, () => [
      { op: 'pauseScope', untilMs: T0 + 45_000, drain: false },
      { op: 'pauseKey', untilMs: T0 + 30_000, restartEmpty: true },
    ]);
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

  it('a reaction that only settles does not wait for the key’s lock; one that writes does', async () => {
    await migrated();
    // Room for the lock's holder, the waiting grant and the reactions.
    const pool = pg.pool({ max: 6 });
    const key = newKey();
    const store = createPgBudgetStore(pool, key, {
      capacity: 10,
      refillPerMs: 0,
      perDay: null,
      windowMs: WINDOW,
    });
    expect(await store.takeFirst(() => T0, [req('getBrands', 5)])).toMatchObject({ kind: 'granted' });
    // Another replica is deciding for the key and holds its lock.
    const holder = await pool.connect();
    await holder.query("SELECT pg_advisory_lock(hashtextextended('rate_budget:' || $1, 0))", [key]);
    const order: string[] = [];
    const grant = store.takeFirst(() => T0 + 10, [req('getBrands', 5)]).then(() => order.push('granted'));
    const pausing = store
      .react({ scope: 'getBrands', limit: 5, nowMs: T0 + 20, headerSinceMs: null }, () => [
        { op: 'pauseScope', untilMs: T0 + 5_000, drain: false },
      ])
      .then(() => order.push('paused'));
    const facts = await factsOf(store, 'getBrands', 5, T0 + 30, T0 - 1);
    order.push('settled');
    // This reaction answered the first send; the second grant still waits for the lock.
    expect(facts).toMatchObject({ scopeSends: 1, headerSends: { scope: 1, key: 1 } });
    await holder.query("SELECT pg_advisory_unlock(hashtextextended('rate_budget:' || $1, 0))", [key]);
    holder.release();
    await Promise.all([grant, pausing]);
    expect(order[0]).toBe('settled');
    expect(order.slice(1).sort()).toEqual(['granted', 'paused']);
  });

  it('each decision is a few round trips: one read and at most one write, the lock only when deciding', async () => {
    await migrated();
    const pool = pg.pool({ max: 1 });
    const sent: string[] = [];
    // Every statement of the pool's connections, by its first words.
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
        sent.push(/^\s*(SELECT pg_advisory_xact_lock|\w+)/.exec(text)![1]!);
        return query(...args);
      }) as typeof client.query;
    });
    const store = createPgBudgetStore(pool, newKey(), {
      capacity: 1,
      refillPerMs: 0,
      perDay: 10,
      windowMs: WINDOW,
    });
    const trips = async (op: () => Promise<unknown>) => {
      sent.length = 0;
      await op();
      return [...sent];
    };
    const decision = ['BEGIN', 'SELECT pg_advisory_xact_lock', 'SELECT', 'WITH', 'COMMIT'];
    expect(await trips(() => store.takeFirst(() => T0, [req('getBrands', 5)]))).toEqual(decision);
    // Nothing to write: the bucket is spent.
    expect(await trips(() => store.takeFirst(() => T0, [req('getBrands', 5)]))).toEqual(
      decision.filter((s) => s !== 'WITH'),
    );
    const answer = { scope: 'getBrands', limit: 5, nowMs: T0 + 100, headerSinceMs: null };
    expect(await trips(() => store.react(answer, () => []))).toEqual(['SELECT', 'WITH']);
    expect(await trips(() => store.react(answer, () => []))).toEqual(['SELECT']);
    expect(
      await trips(() =>
        store.react(answer, () => [{ op: 'pauseKey', untilMs: T0 + 1_000, restartEmpty: true }]),
      ),
    ).toEqual(['SELECT', ...decision]);
    expect(await trips(() => store.snapshot(T0))).toEqual(['SELECT']);
  });
});
