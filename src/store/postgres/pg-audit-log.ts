/**
 * AuditLog on Postgres (audit-log.ts has the contract). Every replica appends; the
 * identity column orders entries by when they were written, as SQLite's rowid does.
 * Details hold what users typed, so a NUL in them is replaced (pg-text.ts), not refused.
 */
import { type AuditEntry, type AuditLog, type AuditRow, auditEntryFromRow } from '../audit-log.js';
import type { PgPool } from './create-pool.js';
import { pgJson, pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

type Row = AuditRow<Record<string, unknown>>;

export function createPgAuditLog(pool: PgPool): AuditLog {
  const db = () => pgExecutor(pool);
  return {
    async record(e: AuditEntry) {
      await db().query(
        `INSERT INTO audit_log (at_ms, user_id, channel_id, brand_id, action, detail, result)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
        [
          e.atMs,
          pgText(e.userId),
          pgText(e.channelId ?? null),
          pgText(e.brandId ?? null),
          pgText(e.action),
          pgJson(e.detail ?? {}),
          pgText(e.result),
        ],
      );
    },
    async recent(limit) {
      const { rows } = await db().query<Row>('SELECT * FROM audit_log ORDER BY id DESC LIMIT $1', [limit]);
      return rows.map((r) => auditEntryFromRow(r, r.detail));
    },
  };
}
