/** Shared helpers of the limiter tests: a temporary database file and bound checks. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EndpointKey } from '../../../src/api/endpoint-table.js';
import {
  createRateLimiter,
  type RateLimiterOptions,
  type SharedRateLimiter,
} from '../../../src/api/limiter/create-rate-limiter.js';
import type { Lane, LimiterState } from '../../../src/api/limiter/types.js';
import { type Db, openDatabase } from '../../../src/store/open-database.js';
import { createSqliteBudgetStore } from '../../../src/store/sqlite-budget-store.js';
import { VirtualClock } from './virtual-clock.js';

export interface TempDb {
  path: string;
  /** A new connection to the same file, as another process would open it. */
  open(): Db;
  cleanup(): void;
}

export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'limiter-test-'));
  const path = join(dir, 'visibility.db');
  const opened: Db[] = [];
  return {
    path,
    open() {
      const db = openDatabase(path);
      opened.push(db);
      return db;
    },
    cleanup() {
      for (const db of opened) if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The most a token bucket can let through is its capacity plus what refills in the
 * interval: checks every pair of grants (i..j) against capacity + rate·(tj − ti) + slack.
 */
export function worstBucketExcess(
  grantsMs: readonly number[],
  capacity: number,
  perMs: number,
  slack = 0,
): number {
  const t = [...grantsMs].sort((a, b) => a - b);
  let worst = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < t.length; i++) {
    for (let j = i; j < t.length; j++) {
      worst = Math.max(worst, j - i + 1 - (capacity + perMs * (t[j]! - t[i]!) + slack));
    }
  }
  return worst;
}

/** The largest number of timestamps in any half-open window [t, t + windowMs). */
export function maxInAnyWindow(timesMs: readonly number[], windowMs: number): number {
  const t = [...timesMs].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < t.length; end++) {
    while (t[end]! - t[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

export const KEY = 'test-key-hash';

/** A limiter's options, with the budget on `db` (another connection: another process). */
export type LimiterOverrides = Partial<RateLimiterOptions> & { db?: Db };

export interface LimiterFixture {
  clock: VirtualClock;
  db: Db;
  file: TempDb;
  /** A limiter whose budget is on the fixture's connection, or on `db` when given. */
  limiter(overrides?: LimiterOverrides): SharedRateLimiter;
  cleanup(): Promise<void>;
}

/** The limiter's state once every store operation it issued so far is done. */
export async function stateOf(limiter: SharedRateLimiter): Promise<LimiterState> {
  await limiter.settled();
  return limiter.state();
}

export interface FixtureOptions {
  /**
   * Leave every grant's answer to the test (limiter.observe). By default each grant is
   * answered at once with a plain 200 and no headers, as the API client does for every
   * request it sends, through a service with no delay.
   */
  unanswered?: boolean;
}

/** A limiter whose every grant is answered at once by a service with no delay. */
function answeringAtOnce(limiter: SharedRateLimiter): SharedRateLimiter {
  return {
    ...limiter,
    async acquire(endpoint, lane, signal, priority) {
      await limiter.acquire(endpoint, lane, signal, priority);
      limiter.observe(endpoint, { status: 200 });
    },
  };
}

/** A virtual clock, a temporary database file, and limiters on it that are closed afterwards. */
export function limiterFixture(defaults: LimiterOverrides = {}, kit: FixtureOptions = {}): LimiterFixture {
  const clock = new VirtualClock();
  const file = tempDb();
  const db = file.open();
  const limiters: SharedRateLimiter[] = [];
  return {
    clock,
    db,
    file,
    limiter(overrides = {}) {
      const { db: on = db, ...options } = { ...defaults, ...overrides };
      const limiter = createRateLimiter({
        budget: (keyHash, config) => createSqliteBudgetStore(on, keyHash, config),
        keyHash: KEY,
        plan: 'scale',
        clock,
        random: () => 0,
        maxJitterMs: 0,
        ...options,
      });
      limiters.push(limiter);
      return kit.unanswered ? limiter : answeringAtOnce(limiter);
    },
    async cleanup() {
      await Promise.all(limiters.map((l) => l.close()));
      file.cleanup();
    },
  };
}

/** Starts `n` acquires at once; resolves with the virtual time each was granted at. */
export function acquireMany(
  limiter: SharedRateLimiter,
  clock: VirtualClock,
  n: number,
  endpoint: EndpointKey | ((i: number) => EndpointKey) = 'getBrands',
  lane: Lane = 'background',
): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await limiter.acquire(typeof endpoint === 'function' ? endpoint(i) : endpoint, lane);
      return clock.now();
    }),
  );
}
