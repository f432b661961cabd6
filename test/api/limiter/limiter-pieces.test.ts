/**
 * The limiter's named pieces on their own: the serial order of store work, the reader
 * behind state(), the dispatcher loop, one grant decision and the state report.
 */
import { describe, expect, it } from 'vitest';
import { BudgetReader } from '../../../src/api/limiter/budget-reader.js';
import {
  BudgetStoreError,
  type SharedSnapshot,
  type TakeResult,
} from '../../../src/api/limiter/budget-store.js';
import { decideGrant, type GrantContext } from '../../../src/api/limiter/grant-decision.js';
import { GrantLoop } from '../../../src/api/limiter/grant-loop.js';
import { InteractiveReserve } from '../../../src/api/limiter/interactive-reserve.js';
import { limiterState } from '../../../src/api/limiter/limiter-state.js';
import { OwnGrants } from '../../../src/api/limiter/own-grants.js';
import { SafetyMargin } from '../../../src/api/limiter/safety-margin.js';
import { SerialTurns } from '../../../src/api/limiter/serial-turns.js';
import { PLAN_LIMITS } from '../../../src/api/plans.js';
import { VirtualClock } from './virtual-clock.js';

const snapshot = (tokens: number, extra: Partial<SharedSnapshot> = {}): SharedSnapshot => ({
  tokens,
  usedToday: 0,
  dailyResetAt: Date.UTC(2025, 0, 16),
  keyPausedUntil: null,
  scopePauses: new Map(),
  ...extra,
});

describe('SerialTurns', () => {
  it('runs operations one at a time in the order issued, past a failure', async () => {
    const turns = new SerialTurns();
    const log: string[] = [];
    let release!: () => void;
    const first = turns.run(
      () =>
        new Promise<void>((r) => {
          log.push('first starts');
          release = () => {
            log.push('first ends');
            r();
          };
        }),
    );
    const failing = turns.run(async () => {
      log.push('second');
      throw new Error('store busy');
    });
    const third = turns.run(async () => log.push('third'));
    await Promise.resolve();
    expect(log).toEqual(['first starts']);
    release();
    await first;
    await expect(failing).rejects.toThrow('store busy');
    await third;
    await turns.idle();
    expect(log).toEqual(['first starts', 'first ends', 'second', 'third']);
  });
});

describe('BudgetReader', () => {
  it('reads once more when asked during a read, and keeps the last good read when one fails', async () => {
    const clock = new VirtualClock();
    const answers: Array<() => Promise<SharedSnapshot>> = [
      async () => snapshot(90),
      async () => snapshot(80),
      async () => {
        throw new Error('database away');
      },
    ];
    let reads = 0;
    const reader = new BudgetReader({ snapshot: () => answers[reads++]!() }, clock, snapshot(100));
    expect(reader.snapshot.tokens).toBe(100);
    reader.refresh();
    reader.refresh(); // during the first read: one more after it, not two
    reader.refresh();
    await reader.current();
    expect(reads).toBe(2);
    expect(reader.snapshot.tokens).toBe(80);
    reader.refresh();
    await reader.current();
    expect(reads).toBe(3);
    expect(reader.snapshot.tokens).toBe(80);
    reader.stop();
    reader.refresh();
    await reader.current();
    expect(reads).toBe(3);
  });
});

describe('GrantLoop', () => {
  it('grants until nobody waits, sleeping only as long as the decision says (pollMs at most)', async () => {
    const clock = new VirtualClock();
    const start = clock.now();
    const decisions = [250, 0, 5_000, 0];
    const grantedAt: number[] = [];
    let waiting = 2;
    let allGranted!: () => void;
    const done = new Promise<void>((resolve) => {
      allGranted = resolve;
    });
    const loop = new GrantLoop({
      clock,
      pollMs: 1_000,
      hasWaiters: () => waiting > 0,
      grantOne: async () => {
        const wait = decisions.shift() ?? 0;
        if (wait === 0) {
          waiting--;
          grantedAt.push(clock.now() - start);
          if (waiting === 0) allGranted();
        }
        return wait;
      },
    });
    loop.pump();
    // The virtual clock moves on whenever the loop sleeps: the grants come as it does.
    await done;
    expect(grantedAt).toEqual([250, 1_250]);
  });

  it('a pump while it sleeps wakes it at once', async () => {
    const clock = new VirtualClock();
    let calls = 0;
    let waiting = true;
    const loop = new GrantLoop({
      clock,
      pollMs: 60_000,
      hasWaiters: () => waiting,
      grantOne: async () => {
        calls++;
        if (calls === 2) waiting = false;
        return calls === 1 ? 30_000 : 0;
      },
    });
    loop.pump();
    await new Promise((r) => setImmediate(r));
    const before = clock.now();
    loop.pump();
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
    expect(clock.now()).toBe(before);
  });
});

describe('decideGrant', () => {
  const limits = PLAN_LIMITS.scale;
  const context = (take: (requests: unknown[]) => Promise<TakeResult>) => {
    const clock = new VirtualClock();
    const asked: unknown[][] = [];
    const ctx: GrantContext = {
      store: {
        takeFirst: (_now, requests) => {
          asked.push([...requests]);
          return take([...requests]);
        },
      },
      clock,
      turns: new SerialTurns(),
      margin: new SafetyMargin({
        refillPerMs: 1 / 1000,
        penaltySpanMs: 60_000,
        maxTokens: 25,
        stepTokens: 5,
        maxLatencyMs: 5_000,
      }),
      reserve: new InteractiveReserve({ togetherMs: 1_000, spanMs: 600_000, maxTokens: 10 }),
      ownGrants: new OwnGrants(5_000),
      burst: limits.burst,
    };
    return { ctx, asked };
  };
  const people = { scope: 'getBrands', limit: 60, lane: 'interactive' as const };
  const jobs = { scope: 'getCitations', limit: 60, lane: 'background' as const };

  it('the background lane leaves a window slot and the reserve; the chosen head is returned', async () => {
    const { ctx, asked } = context(async () => ({ kind: 'granted', index: 1, nowMs: 1, tokensBefore: 50 }));
    const outcome = await decideGrant(ctx, [people, jobs]);
    expect(outcome).toMatchObject({ kind: 'granted', waiter: jobs });
    expect(asked[0]).toMatchObject([
      { scope: 'getBrands', slotsLeft: 0 },
      { scope: 'getCitations', slotsLeft: 1 },
    ]);
    const [p, j] = asked[0] as Array<{ tokensLeft: number }>;
    expect(j!.tokensLeft).toBeGreaterThanOrEqual(p!.tokensLeft);
  });

  it('passes a wait and a spent quota through, and names a failing store', async () => {
    const wait = context(async () => ({ kind: 'wait', waitMs: 700 }));
    expect(await decideGrant(wait.ctx, [people])).toEqual({ kind: 'wait', waitMs: 700 });
    const quota = context(async () => ({ kind: 'quota', resetAt: 123 }));
    expect(await decideGrant(quota.ctx, [people])).toEqual({ kind: 'quota', resetAt: 123 });
    const broken = context(async () => {
      throw new Error('connection reset');
    });
    const failed = await decideGrant(broken.ctx, [people]);
    expect(failed.kind).toBe('failed');
    expect(failed.kind === 'failed' && failed.error).toBeInstanceOf(BudgetStoreError);
  });
});

describe('limiterState', () => {
  it('shows pauses and the day as they stand now, not as last read', () => {
    const now = Date.UTC(2025, 0, 15, 12);
    const state = limiterState({
      now,
      plan: 'scale',
      limits: PLAN_LIMITS.scale,
      windowMs: 60_000,
      shared: snapshot(42, {
        usedToday: 900,
        keyPausedUntil: now - 1,
        scopePauses: new Map([
          ['getBrands', now + 5_000],
          ['getCitations', now - 5_000],
        ]),
      }),
      scopeOf: (key) => ({ scope: key }),
      queued: { interactive: 2, background: 5 },
      waitedMs: { interactive: 10, background: 20 },
      rateLimitedCount: 3,
    });
    expect(state).toMatchObject({
      tokens: 42,
      capacity: 100,
      refillPerSecond: 1,
      usedToday: 900,
      keyPausedUntil: null,
      endpointPauses: { getBrands: now + 5_000 },
      lanes: { interactive: { queued: 2 }, background: { queued: 5 } },
      rateLimitedCount: 3,
    });
    const nextDay = limiterState({
      now: Date.UTC(2025, 0, 16, 1),
      plan: 'scale',
      limits: PLAN_LIMITS.scale,
      windowMs: 60_000,
      shared: snapshot(42, { usedToday: 900 }),
      scopeOf: (key) => ({ scope: key }),
      queued: { interactive: 0, background: 0 },
      waitedMs: { interactive: 0, background: 0 },
      rateLimitedCount: 0,
    });
    expect(nextDay.usedToday).toBe(0);
    expect(nextDay.dailyResetAt).toBe(Date.UTC(2025, 0, 17));
  });
});
