/**
 * What "the database can be used" means for SQLite (database-health.ts's probe).
 */
import { databaseUnavailable, databaseUnavailableCode } from './store/database-unavailable.js';

/** What the SQLite probe needs of a better-sqlite3 handle. */
interface SqliteHandle {
  readonly open: boolean;
  readonly inTransaction: boolean;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
}

/**
 * SQLite's probe: can this connection take the write lock now? Reads go on while another
 * connection holds the file, so `SELECT 1` would say yes to a database no write reaches.
 * busy_timeout is 0 for the probe (a busy wait would hold the event loop), and a lock is
 * tried again on a timer for up to `waitMs` (default 750 ms, inside the probe's 1 s), so
 * another process's short transaction (a run-job beside serve) is waited out rather than
 * taken for an outage.
 */
export function sqliteWriteProbe(
  db: SqliteHandle,
  options: { waitMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): () => Promise<void> {
  const waitMs = options.waitMs ?? 750;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return async () => {
    if (!db.open) throw databaseUnavailable('db_unreachable', 'the SQLite database is closed');
    const started = performance.now();
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      // This connection holds a transaction of its own: the lock is ours already.
      if (db.inTransaction) return;
      const before = db.pragma('busy_timeout', { simple: true });
      try {
        db.pragma('busy_timeout = 0');
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return;
      } catch (err) {
        if (databaseUnavailableCode(err) !== 'db_locked' || performance.now() - started >= waitMs) throw err;
      } finally {
        db.pragma(`busy_timeout = ${Number(before)}`);
      }
      await sleep(wait);
    }
  };
}
