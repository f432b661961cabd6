/**
 * Where the API key's shared budget lives, as the limiter sees it: asynchronous, so the same
 * limiter paces against SQLite (embedded, one host) or Postgres (replicas on several hosts).
 * The limiter calls a store one operation at a time (per process), in the order issued.
 *
 * The decisions are pure functions over the budget's state (budget-state.ts, decide-take.ts,
 * decide-reaction.ts); a store only reads the state a decision needs, calls it and writes
 * back its changes (budget-changes.ts), under a lock every process using the key shares:
 * SQLite's write lock (store/sqlite-budget-store.ts), a Postgres advisory lock per key
 * (store/postgres/pg-budget-store.ts). So processes sharing the store never spend the same
 * token. Every operation runs synchronously on SQLite once it holds the lock, never across
 * an event-loop turn in which the process's own jobs would block on it.
 */
import type { BucketParams } from './token-bucket.js';

export interface SharedBucketConfig extends BucketParams {
  /** null = no daily cap */
  perDay: number | null;
  windowMs: number;
}

/** One waiting request, as the store sees it. */
export interface TakeRequest {
  /** Endpoint scope (endpoint key or 'group:…'); its window is skipped when limit is null. */
  scope: string;
  limit: number | null;
  /** Tokens to leave in the bucket (headroom for interactive callers and for latency). */
  tokensLeft: number;
  /** Window slots to leave free (the background lane's headroom). */
  slotsLeft: number;
}

export type TakeResult =
  | { kind: 'granted'; index: number; nowMs: number; tokensBefore: number }
  | { kind: 'wait'; waitMs: number; tokensBefore?: number }
  | { kind: 'quota'; resetAt: number };

/** The rate_sends scope of the key's own sends (endpoint scopes are endpoint keys or 'group:…'). */
export const KEY_SCOPE = 'key';

export interface SharedSnapshot {
  tokens: number;
  usedToday: number;
  dailyResetAt: number;
  keyPausedUntil: number | null;
  /** scope → epoch ms, only pauses still running */
  scopePauses: Map<string, number>;
}

/** What a reaction to one response reads, after the send it answers is settled. */
export interface ReactionQuery {
  /** The endpoint's window scope (endpoint key or 'group:…'). */
  scope: string;
  /** The window's limit; null = no per-endpoint window (only the key's send is settled). */
  limit: number | null;
  nowMs: number;
  /** Count sends since this time too (the window an X-RateLimit-Reset ends); null = not needed. */
  headerSinceMs: number | null;
}

export interface ReactionFacts {
  /** Sends of `scope` in the window ending now (0 when limit is null). */
  scopeSends: number;
  /** Tokens in the key's bucket now. */
  tokens: number;
  /** Sends since `headerSinceMs`, of the scope and of the whole key (0 when not asked). */
  headerSends: { scope: number; key: number };
}

/**
 * One change a reaction makes to the budget, applied in order (decide-reaction.ts).
 * `pauseScope` pauses the endpoint scope the response came from; with `drain` its window
 * then frees at the endpoint's own rate.
 */
export type BudgetWrite =
  | { op: 'pauseKey'; untilMs: number; restartEmpty: boolean }
  | { op: 'pauseScope'; untilMs: number; drain: boolean }
  | { op: 'lowerTokens'; atMost: number }
  | { op: 'spendTokens'; count: number }
  | { op: 'markDaySpent' };

/** Decides a reaction's writes from its facts; called once per reaction. */
export type DecideReaction = (facts: ReactionFacts) => readonly BudgetWrite[];

export interface BudgetStore {
  /**
   * Grants the first request (in the caller's priority order) that may be sent now and
   * counts it, or says how long until one could, or that the day's quota is spent
   * (decide-take.ts). `clockNow` is read once the store's lock is held.
   */
  takeFirst(clockNow: () => number, requests: readonly TakeRequest[]): Promise<TakeResult>;
  /**
   * Settles the answered send, reads the facts, applies `decide`'s writes
   * (decide-reaction.ts). The writes are applied atomically under the store's lock.
   */
  react(query: ReactionQuery, decide: DecideReaction): Promise<void>;
  snapshot(nowMs: number): Promise<SharedSnapshot>;
  /** Releases what the store opened itself (never a pool or handle it was lent). */
  close(): Promise<void>;
}

/** Builds the store for one key with the limiter's arithmetic (capacity, rates, windows). */
export type BudgetStoreFactory = (keyHash: string, config: SharedBucketConfig) => BudgetStore;

/** The budget store failed (closed, unreachable, locked too long): nobody can be paced. */
export class BudgetStoreError extends Error {
  readonly code = 'limiter_budget_store_failed';
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'BudgetStoreError';
  }
}
