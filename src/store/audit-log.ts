import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export interface AuditEntry {
  atMs: number;
  userId: string;
  channelId?: string | null;
  brandId?: string | null;
  /** e.g. `markets.add`, `subscribe` */
  action: string;
  detail?: Record<string, unknown>;
  /** `ok`, `refused: …` or `error: <code>` */
  result: string;
}

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  recent(limit: number): Promise<AuditEntry[]>;
}

/** An audit_log row as both backends return it; only the detail's form differs (JSON text, jsonb). */
export interface AuditRow<D> {
  at_ms: number;
  user_id: string;
  channel_id: string | null;
  brand_id: string | null;
  action: string;
  detail: D;
  result: string;
}

export function auditEntryFromRow(r: AuditRow<unknown>, detail: Record<string, unknown>): AuditEntry {
  return {
    atMs: r.at_ms,
    userId: r.user_id,
    channelId: r.channel_id,
    brandId: r.brand_id,
    action: r.action,
    detail,
    result: r.result,
  };
}

export function createAuditLog(db: Db): AuditLog {
  const insert = db.prepare(
    'INSERT INTO audit_log (at_ms, user_id, channel_id, brand_id, action, detail, result) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const select = db.prepare('SELECT * FROM audit_log ORDER BY id DESC LIMIT ?');
  return asyncRepo<AuditLog>(db, {
    record(e) {
      insert.run(
        e.atMs,
        e.userId,
        e.channelId ?? null,
        e.brandId ?? null,
        e.action,
        JSON.stringify(e.detail ?? {}),
        e.result,
      );
    },
    recent(limit) {
      return (select.all(limit) as AuditRow<string>[]).map((r) =>
        auditEntryFromRow(r, JSON.parse(r.detail) as Record<string, unknown>),
      );
    },
  });
}
