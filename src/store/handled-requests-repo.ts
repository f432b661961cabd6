/**
 * Which Slack requests were already accepted, keyed by what Slack keeps the same across
 * a redelivery (a trigger_id, an event_id). Kept in the database, not in memory, so a
 * redelivery that arrives after a restart is still recognised.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export interface HandledRequestsRepo {
  /**
   * Records `key` as accepted at `nowMs`; true when it had already been accepted within
   * `keepMs` before (a redelivery of something the bot acted on).
   */
  remember(key: string, nowMs: number, keepMs: number): Promise<boolean>;
  /** Forgets requests accepted before `cutoffMs`; returns how many. */
  purgeBefore(cutoffMs: number): Promise<number>;
}

export function createHandledRequestsRepo(db: Db): HandledRequestsRepo {
  const find = db.prepare('SELECT handled_at_ms FROM handled_requests WHERE request_key = ?');
  const upsert = db.prepare(
    `INSERT INTO handled_requests (request_key, handled_at_ms) VALUES (?, ?)
     ON CONFLICT (request_key) DO UPDATE SET handled_at_ms = excluded.handled_at_ms`,
  );
  const purge = db.prepare('DELETE FROM handled_requests WHERE handled_at_ms < ?');
  // IMMEDIATE: two processes (or replicas on one file) cannot both see a key as new.
  const remember = db.transaction((key: string, nowMs: number, keepMs: number): boolean => {
    const row = find.get(key) as { handled_at_ms: number } | undefined;
    const seen = row !== undefined && row.handled_at_ms >= nowMs - keepMs;
    if (!seen) upsert.run(key, nowMs);
    return seen;
  });
  return asyncRepo<HandledRequestsRepo>(db, {
    remember: (key, nowMs, keepMs) => remember.immediate(key, nowMs, keepMs),
    purgeBefore: (cutoffMs) => purge.run(cutoffMs).changes,
  });
}
