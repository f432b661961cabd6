/**
 * Where the API key's shared budget lives, as the limiter sees it: asynchronous, so the same
 * limiter paces against SQLite (embedded, one host) or Postgres (replicas on several hosts).
 * Every grant decision is one transaction under the store's lock, so processes sharing
 * the store never spend the same token. The limiter calls them one at a time (per process) and in the order it issued them.
 *
 * A reaction is split into facts the store reads and writes a pure decision returns
 * (`react`), instead of an open transaction the caller drives with awaits: SQLite can then
 * run the whole reaction synchronously under its write lock, never holding the lock across
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

/** One change a reaction makes to the budget; applied in order, in the reaction's transaction. */
export type BudgetWrite =
  | { op: 'pauseKey'; untilMs: number; restartEmpty: boolean }
  | { op: 'pauseScope'; scope: string; untilMs: number; limit: number | null }
  | { op: 'lowerTokens'; atMost: number }
  | { op: 'spendTokens'; count: number }
  | { op: 'markDaySpent' };

/** Decides a reaction's writes from its facts. Called once, inside the store's transaction. */
export type DecideReaction = (facts: ReactionFacts) => readonly BudgetWrite[];

export interface BudgetStore {
  /**
   * Grants the first request (in the caller's priority order) that may be sent now and
   * counts it, or says how long until one could, or that the day's quota is spent.
   * `clockNow` is read once the store's lock is held.
   */
  takeFirst(clockNow: () => number, requests: readonly TakeRequest[]): Promise<TakeResult>;
  /**
   * Settles the answered send, reads the facts, applies `decide`'s writes. SQLite: one
   * transaction. Postgres: the writes in one transaction under the key's lock, the settle
   * and reads before it without the lock (pg-shared-bucket-store.ts says why that is safe).
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
