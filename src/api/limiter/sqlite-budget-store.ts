/**
 * The key's budget on SQLite behind the asynchronous BudgetStore seam. The handle must be
 * the budget's own connection to the database file (app-deps opens a second one): on the
 * connection the repositories use, a grant made while a job's transaction is open would
 * join that transaction and vanish with its rollback.
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
import { type BudgetStore, BudgetStoreError } from './budget-store.js';
import { type SharedBucketConfig, SharedBucketStore } from './shared-bucket-store.js';

export interface SqliteBudgetStoreOptions {
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
  const store = new SharedBucketStore(db, keyHash, config);
  const firstDelay = options.retryDelayMs ?? 1;
  const maxDelay = options.maxRetryDelayMs ?? 25;
  const giveUpAfterMs = options.giveUpAfterMs ?? 10_000;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const elapsed = options.elapsedMs ?? (() => performance.now());

  async function withLock<T>(what: string, op: () => T): Promise<T> {
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
  }

  return {
    takeFirst: (clockNow, requests) => withLock('grant a request', () => store.takeFirst(clockNow, requests)),
    react: (query, decide) => withLock('record a response', () => store.react(query, decide)),
    snapshot: (nowMs) => withLock('be read', () => store.snapshot(nowMs)),
    async close() {
      if (options.ownsHandle && db.open) db.close();
    },
  };
}
