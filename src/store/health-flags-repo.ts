/**
 * The bot's own trouble (DESIGN.md: key rejected, daily quota spent, jobs failing), kept
 * so each problem is reported once when it starts and once when it clears, however many
 * runs see it in between.
 *
 * A flag that clears and comes back before either change was reported produces no report
 * at all: the people in the ops channel already heard it is broken, and it still is.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

/** Well-known keys; `job_failing:<job>` is built with `jobFailingFlag`. */
export const HealthFlagKey = {
  KeyRejected: 'key_rejected',
  QuotaSpent: 'quota_spent',
} as const;
export const jobFailingFlag = (job: string) => `job_failing:${job}`;

export interface HealthFlag {
  key: string;
  detail: string | null;
  raisedAtMs: number;
  raisedReportedAtMs: number | null;
  clearedAtMs: number | null;
  clearedReportedAtMs: number | null;
}

export interface HealthReport {
  key: string;
  event: 'raised' | 'cleared';
  detail: string | null;
  atMs: number;
}

export interface HealthFlagsRepo {
  /** true when this starts a new episode (the flag was not active). */
  raise(key: string, detail: string | null, nowMs: number): Promise<boolean>;
  /** true when an active flag was cleared. */
  clear(key: string, nowMs: number): Promise<boolean>;
  /** Raised flags, cleared or not, that still owe a report; oldest first. */
  pendingReports(): Promise<HealthReport[]>;
  markReported(key: string, event: 'raised' | 'cleared', nowMs: number): Promise<void>;
  /** Flags currently raised (for `status` and /healthz). */
  active(): Promise<HealthFlag[]>;
  get(key: string): Promise<HealthFlag | null>;
}

/** A health_flags row, as both backends return it. */
export interface HealthFlagRow {
  key: string;
  detail: string | null;
  raised_at_ms: number;
  raised_reported_at_ms: number | null;
  cleared_at_ms: number | null;
  cleared_reported_at_ms: number | null;
}

type Row = HealthFlagRow;

export function healthFlagFromRow(r: HealthFlagRow): HealthFlag {
  return {
    key: r.key,
    detail: r.detail,
    raisedAtMs: r.raised_at_ms,
    raisedReportedAtMs: r.raised_reported_at_ms,
    clearedAtMs: r.cleared_at_ms,
    clearedReportedAtMs: r.cleared_reported_at_ms,
  };
}

export function createHealthFlagsRepo(db: Db): HealthFlagsRepo {
  const select = db.prepare('SELECT * FROM health_flags WHERE key = ?');
  const insert = db.prepare('INSERT INTO health_flags (key, detail, raised_at_ms) VALUES (?, ?, ?)');
  const newEpisode = db.prepare(
    `UPDATE health_flags SET detail = ?, raised_at_ms = ?, raised_reported_at_ms = NULL,
       cleared_at_ms = NULL, cleared_reported_at_ms = NULL WHERE key = ?`,
  );
  const unclear = db.prepare('UPDATE health_flags SET detail = ?, cleared_at_ms = NULL WHERE key = ?');
  const refreshDetail = db.prepare('UPDATE health_flags SET detail = ? WHERE key = ?');
  const setCleared = db.prepare('UPDATE health_flags SET cleared_at_ms = ? WHERE key = ?');
  const forget = db.prepare('DELETE FROM health_flags WHERE key = ?');
  const reportRaised = db.prepare('UPDATE health_flags SET raised_reported_at_ms = ? WHERE key = ?');
  const reportCleared = db.prepare('UPDATE health_flags SET cleared_reported_at_ms = ? WHERE key = ?');
  const pending = db.prepare(
    `SELECT * FROM health_flags
     WHERE raised_reported_at_ms IS NULL OR (cleared_at_ms IS NOT NULL AND cleared_reported_at_ms IS NULL)
     ORDER BY raised_at_ms`,
  );
  const activeRows = db.prepare(
    'SELECT * FROM health_flags WHERE cleared_at_ms IS NULL ORDER BY raised_at_ms',
  );

  const get = (key: string) => {
    const r = select.get(key) as Row | undefined;
    return r ? healthFlagFromRow(r) : null;
  };

  const raise = db.transaction((key: string, detail: string | null, nowMs: number): boolean => {
    const f = get(key);
    if (!f) {
      insert.run(key, detail, nowMs);
      return true;
    }
    if (f.clearedAtMs === null) {
      refreshDetail.run(detail, key);
      return false;
    }
    // Cleared but the clearing was never reported: as far as anyone was told, it never
    // stopped. Undo the clear instead of announcing the same problem twice.
    if (f.clearedReportedAtMs === null && f.raisedReportedAtMs !== null) {
      unclear.run(detail, key);
      return false;
    }
    newEpisode.run(detail, nowMs, key);
    return true;
  });

  const clear = db.transaction((key: string, nowMs: number): boolean => {
    const f = get(key);
    if (!f || f.clearedAtMs !== null) return false;
    // Raised and gone before anyone was told: nothing to report either way.
    if (f.raisedReportedAtMs === null) forget.run(key);
    else setCleared.run(nowMs, key);
    return true;
  });

  return asyncRepo<HealthFlagsRepo>(db, {
    raise: (key, detail, nowMs) => raise.immediate(key, detail, nowMs),
    clear: (key, nowMs) => clear.immediate(key, nowMs),
    pendingReports() {
      const out: HealthReport[] = [];
      for (const r of (pending.all() as Row[]).map(healthFlagFromRow)) {
        if (r.raisedReportedAtMs === null)
          out.push({ key: r.key, event: 'raised', detail: r.detail, atMs: r.raisedAtMs });
        else if (r.clearedAtMs !== null)
          out.push({ key: r.key, event: 'cleared', detail: r.detail, atMs: r.clearedAtMs });
      }
      return out;
    },
    markReported(key, event, nowMs) {
      (event === 'raised' ? reportRaised : reportCleared).run(nowMs, key);
    },
    active: () => (activeRows.all() as Row[]).map(healthFlagFromRow),
    get,
  });
}
