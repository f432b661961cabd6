/**
 * The key's shared budget as one decision sees it: the rows a persistence (SQLite or
 * Postgres) read for it, as plain data. Every decision (decide-take.ts, decide-reaction.ts)
 * is a pure function from this state to the next one; budget-changes.ts turns the
 * difference into what the persistence writes back. The arithmetic therefore exists once,
 * whatever the storage.
 *
 * A state is usually partial: a decision reads only the scopes it concerns, and of their
 * sends only the recent ones (BudgetRead). Rows it did not read stay as they are, except
 * where a log says it dropped old sends (SendLog.dropThroughMs).
 */
import { nextUtcMidnight, utcDay } from '../../utc-days.js';
import type { SharedBucketConfig, SharedSnapshot } from './budget-store.js';
import { type BucketLevel, refill } from './token-bucket.js';

/** The key's token bucket. A 429 may set a level that starts in the future (atMs). */
export interface BucketRow {
  tokens: number;
  atMs: number;
  /** The whole key is paused until then (a 429 of the key's limit); null = never paused. */
  pausedUntilMs: number | null;
}

/** One send counted in a scope's window. */
export interface SendRow {
  /** The row's identity in the store; absent for a send this decision adds. */
  id?: number;
  /** When the send counts from: its grant, moved to its response once answered. */
  atMs: number;
  /**
   * Its response came back (or a pause placed it): no response will move it again.
   * Undefined when not read: a reaction answers only the oldest send in flight, which a
   * persistence reads with its flag; the others need only their time.
   */
  settled?: boolean;
}

/** A scope's sends, oldest first (ties in the order they were recorded). */
export interface SendLog {
  rows: readonly SendRow[];
  /**
   * Set by a decision that forgets old sends: every stored send of the scope at or before
   * this time is gone, read or not (Infinity: all of them; the rows listed are new).
   */
  dropThroughMs?: number;
}

export interface BudgetState {
  /** null: the key was never seen, its bucket is full. */
  bucket: BucketRow | null;
  /** Sends counted on one UTC day (the day of the decision when read by a persistence). */
  daily: { day: string; count: number };
  /** Every pause of an endpoint scope, scope → epoch ms (past ones may be there too). */
  pauses: ReadonlyMap<string, number>;
  /** Sends of the scopes read (those a decision needs), scope → log. */
  sends: ReadonlyMap<string, SendLog>;
}

/** What a persistence reads for one decision, besides the bucket, the day's count and the pauses. */
export interface BudgetRead {
  nowMs: number;
  /** Scopes whose sends after `sendsAfterMs` are read. */
  sendScopes: readonly string[];
  sendsAfterMs: number;
  /** Scopes whose oldest send still in flight is read too, however old. */
  inFlightScopes: readonly string[];
}

/** Sends counted against the key on the UTC day of `nowMs`. */
export function usedOn(state: BudgetState, nowMs: number): number {
  return state.daily.day === utcDay(nowMs) ? state.daily.count : 0;
}

/** The bucket at `nowMs`. A key seen for the first time starts full, as the service's does. */
export function bucketLevel(
  bucket: BucketRow | null,
  config: SharedBucketConfig,
  nowMs: number,
): BucketLevel {
  if (!bucket) return { tokens: config.capacity, atMs: nowMs };
  return refill({ tokens: bucket.tokens, atMs: bucket.atMs }, config, nowMs);
}

export function rowsOf(state: BudgetState, scope: string): readonly SendRow[] {
  return state.sends.get(scope)?.rows ?? [];
}

/** The times of `scope`'s sends after `afterMs`, ascending. */
export function sendTimesAfter(state: BudgetState, scope: string, afterMs: number): number[] {
  return rowsOf(state, scope)
    .map((r) => r.atMs)
    .filter((t) => t > afterMs);
}

/** `rows` with `row` inserted in time order, after any send recorded at the same time. */
export function insertRow(rows: readonly SendRow[], row: SendRow): SendRow[] {
  const at = rows.findIndex((r) => r.atMs > row.atMs);
  return at === -1 ? [...rows, row] : [...rows.slice(0, at), row, ...rows.slice(at)];
}

export function withLog(state: BudgetState, scope: string, log: SendLog): BudgetState {
  return { ...state, sends: new Map(state.sends).set(scope, log) };
}

/** What status, /healthz and metrics show of the shared budget (create-rate-limiter.ts). */
export function snapshotRead(nowMs: number): BudgetRead {
  return { nowMs, sendScopes: [], sendsAfterMs: nowMs, inFlightScopes: [] };
}

export function snapshotOf(state: BudgetState, config: SharedBucketConfig, nowMs: number): SharedSnapshot {
  const pausedUntil = state.bucket?.pausedUntilMs ?? null;
  return {
    tokens: bucketLevel(state.bucket, config, nowMs).tokens,
    usedToday: usedOn(state, nowMs),
    dailyResetAt: nextUtcMidnight(nowMs),
    keyPausedUntil: pausedUntil !== null && pausedUntil > nowMs ? pausedUntil : null,
    scopePauses: new Map([...state.pauses].filter(([, until]) => until > nowMs)),
  };
}
