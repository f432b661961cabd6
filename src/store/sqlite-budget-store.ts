/**
 * The key's rate budget on SQLite (api/limiter/budget-store.ts): every operation reads the
 * rows its decision needs, calls the pure decision (api/limiter/decide-take.ts,
 * decide-reaction.ts) and writes the changes back inside one BEGIN IMMEDIATE transaction,
 * so two processes (or two limiters on one file) never both spend the same token: the
 * second waits for SQLite's lock and then sees the first's take.
 *
 * The handle must be the budget's own connection to the database file (app-deps opens a
 * second one): on the connection the repositories use, a grant made while a job's
 * transaction is open would join that transaction and vanish with its rollback.
 *
 * Two connections to one file in one process must never wait for each other synchronously:
 * a job's transaction on the other connection can only commit once the event loop runs
 * again. So the budget's connection gets busy_timeout 0, a locked file answers SQLITE_BUSY
 * at once, and the attempt is repeated after a short timer (the event loop runs meanwhile)
 * until the lock frees or `giveUpAfterMs` passes. Every operation runs synchronously once
 * it has the lock, so the budget never holds the write lock across an event-loop turn.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { BudgetChanges } from '../api/limiter/budget-changes.js';
import {
  type BudgetRead,
  type BudgetState,
  type SendLog,
  type SendRow,
  snapshotOf,
  snapshotRead,
} from '../api/limiter/budget-state.js';
import { type BudgetStore, BudgetStoreError, type SharedBucketConfig } from '../api/limiter/budget-store.js';
import { decideReaction, reactionRead } from '../api/limiter/decide-reaction.js';
import { decideTake, takeRead } from '../api/limiter/decide-take.js';
import { utcDay } from '../utc-days.js';

interface SqliteBudgetStoreOptions {
  /** Close the handle with the store (it was opened for it); default false. */
  ownsHandle?: boolean;
  /** First wait after SQLITE_BUSY, doubled on each retry up to maxRetryDelayMs; default 1. */
  retryDelayMs?: number;
  /** default 25, near SQLite's own busy handler's longest step */
  maxRetryDelayMs?: number;
  /** Fail the operation after the file stayed locked this long; default 10000. */
  giveUpAfterMs?: number;
  /** Real time: waiting for a lock is I/O, not pacing (tests may pass their own). */
  sleep?: (ms: number) => Promise<void>;
  elapsedMs?: () => number;
}

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === 'string' &&
  (error as { code: string }).code.startsWith('SQLITE_BUSY');

export function createSqliteBudgetStore(
  db: Database.Database,
  keyHash: string,
  config: SharedBucketConfig,
  options: SqliteBudgetStoreOptions = {},
): BudgetStore {
  // An in-memory database has no other connection to wait for, and its one handle is
  // shared with the repositories: leave its busy_timeout alone.
  if (!db.memory) db.pragma('busy_timeout = 0');
  const rows = budgetRows(db, keyHash);
  const transaction = db.transaction((op: () => unknown) => op());
  const immediate = <T>(op: () => T) => transaction.immediate(op) as T;
  const withLock = lockRetrier(options);

  return {
    takeFirst: (clockNow, requests) =>
      withLock('grant a request', () =>
        immediate(() => {
          // The time is read once the lock is held (decide-take.ts says why).
          const nowMs = clockNow();
          const decision = decideTake(rows.read(takeRead(config, nowMs, requests)), config, nowMs, requests);
          rows.write(decision.changes);
          return decision.result;
        }),
      ),
    react: (query, decide) =>
      withLock('record a response', () =>
        immediate(() => {
          rows.write(decideReaction(rows.read(reactionRead(config, query)), config, query, decide).changes);
        }),
      ),
    snapshot: (nowMs) => withLock('be read', () => snapshotOf(rows.read(snapshotRead(nowMs)), config, nowMs)),
    async close() {
      if (options.ownsHandle && db.open) db.close();
    },
  };
}

/** Runs an operation, again after a short timer while the file is locked (see above). */
function lockRetrier(options: SqliteBudgetStoreOptions) {
  const firstDelay = options.retryDelayMs ?? 1;
  const maxDelay = options.maxRetryDelayMs ?? 25;
  const giveUpAfterMs = options.giveUpAfterMs ?? 10_000;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const elapsed = options.elapsedMs ?? (() => performance.now());
  return async function withLock<T>(what: string, op: () => T): Promise<T> {
    const started = elapsed();
    let wait = firstDelay;
    for (;;) {
      try {
        return op();
      } catch (error) {
        if (!isBusy(error)) throw new BudgetStoreError(`The rate budget could not ${what}.`, error);
        if (elapsed() - started >= giveUpAfterMs) {
          throw new BudgetStoreError(
            `The rate budget could not ${what}: the database stayed locked for ${giveUpAfterMs} ms.`,
            error,
          );
        }
      }
      await sleep(wait);
      wait = Math.min(wait * 2, maxDelay);
    }
  };
}

interface SendRecord {
  id: number;
  at_ms: number;
}

/** The budget's rows of one key: what a decision reads, and its changes written back. */
function budgetRows(db: Database.Database, keyHash: string) {
  const s = prepareStatements(db);
  return {
    read(q: BudgetRead): BudgetState {
      const bucket = s.bucket.get(keyHash);
      const day = utcDay(q.nowMs);
      const sends = new Map<string, SendLog>();
      for (const scope of new Set([...q.sendScopes, ...q.inFlightScopes])) {
        // Only the oldest send in flight is read with its flag: the answered flag of the
        // others is not in the index, and reading it for each costs a table lookup.
        const recent: SendRow[] = q.sendScopes.includes(scope)
          ? s.sendsAfter.all(keyHash, scope, q.sendsAfterMs).map((r) => ({ id: r.id, atMs: r.at_ms }))
          : [];
        const found = q.inFlightScopes.includes(scope) ? s.oldestInFlight.get(keyHash, scope) : undefined;
        const inFlight = found && { id: found.id, atMs: found.at_ms, settled: false };
        const at = inFlight ? recent.findIndex((r) => r.id === inFlight.id) : -1;
        if (inFlight && at !== -1) recent[at] = inFlight;
        // The oldest in flight, when not among the recent ones, is older than all of them.
        else if (inFlight) recent.unshift(inFlight);
        sends.set(scope, { rows: recent });
      }
      return {
        bucket: bucket
          ? { tokens: bucket.tokens, atMs: bucket.updated_at_ms, pausedUntilMs: bucket.paused_until_ms }
          : null,
        daily: { day, count: s.usedOn.get(keyHash, day) ?? 0 },
        pauses: new Map(s.pauses.all(keyHash).map((p) => [p.scope, p.paused_until_ms])),
        sends,
      };
    },
    // In the order budget-changes.ts defines: settles, drops, then new sends.
    write(c: BudgetChanges): void {
      for (const { id, atMs } of c.settles) s.settle.run(atMs, id);
      for (const { scope, throughMs } of c.drops) s.drop.run(keyHash, scope, throughMs);
      for (const { scope, atMs, settled } of c.adds) s.add.run(keyHash, scope, atMs, settled ? 1 : 0);
      if (c.bucket) s.saveBucket.run(keyHash, c.bucket.tokens, c.bucket.atMs, c.bucket.pausedUntilMs);
      if (c.daily) {
        s.setUse.run(keyHash, c.daily.day, c.daily.count);
        if (c.daily.dropEarlierDays) s.dropEarlierDays.run(keyHash, c.daily.day);
      }
      for (const [scope, untilMs] of c.pauses) s.setPause.run(keyHash, scope, untilMs);
    },
  };
}

function prepareStatements(db: Database.Database) {
  return {
    bucket: db.prepare<[string], { tokens: number; updated_at_ms: number; paused_until_ms: number | null }>(
      'SELECT tokens, updated_at_ms, paused_until_ms FROM rate_buckets WHERE key_hash = ?',
    ),
    pauses: db.prepare<[string], { scope: string; paused_until_ms: number }>(
      'SELECT scope, paused_until_ms FROM rate_scope_pauses WHERE key_hash = ?',
    ),
    usedOn: db
      .prepare<[string, string], number>('SELECT count FROM rate_daily_usage WHERE key_hash = ? AND day = ?')
      .pluck(),
    saveBucket: db.prepare<[string, number, number, number | null]>(
      `INSERT INTO rate_buckets (key_hash, tokens, updated_at_ms, paused_until_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (key_hash) DO UPDATE SET tokens = excluded.tokens,
         updated_at_ms = excluded.updated_at_ms, paused_until_ms = excluded.paused_until_ms`,
    ),
    setPause: db.prepare<[string, string, number]>(
      `INSERT INTO rate_scope_pauses (key_hash, scope, paused_until_ms) VALUES (?, ?, ?)
       ON CONFLICT (key_hash, scope) DO UPDATE SET paused_until_ms = excluded.paused_until_ms`,
    ),
    sendsAfter: db.prepare<[string, string, number], SendRecord>(
      `SELECT rowid AS id, sent_at_ms AS at_ms FROM rate_sends
       WHERE key_hash = ? AND scope = ? AND sent_at_ms > ? ORDER BY sent_at_ms, rowid`,
    ),
    oldestInFlight: db.prepare<[string, string], SendRecord>(
      `SELECT rowid AS id, sent_at_ms AS at_ms FROM rate_sends
       WHERE key_hash = ? AND scope = ? AND settled = 0 ORDER BY sent_at_ms, rowid LIMIT 1`,
    ),
    settle: db.prepare<[number, number]>('UPDATE rate_sends SET sent_at_ms = ?, settled = 1 WHERE rowid = ?'),
    drop: db.prepare<[string, string, number]>(
      'DELETE FROM rate_sends WHERE key_hash = ? AND scope = ? AND sent_at_ms <= ?',
    ),
    add: db.prepare<[string, string, number, number]>(
      'INSERT INTO rate_sends (key_hash, scope, sent_at_ms, settled) VALUES (?, ?, ?, ?)',
    ),
    setUse: db.prepare<[string, string, number]>(
      `INSERT INTO rate_daily_usage (key_hash, day, count) VALUES (?, ?, ?)
       ON CONFLICT (key_hash, day) DO UPDATE SET count = excluded.count`,
    ),
    dropEarlierDays: db.prepare<[string, string]>(
      'DELETE FROM rate_daily_usage WHERE key_hash = ? AND day < ?',
    ),
  };
}
