/**
 * AuditLog (audit-log.ts has the contract), for both backends. Every process appends; the
 * id (SQLite's rowid, a Postgres identity) orders entries by when they were written.
 * Details hold what users typed, so a character Postgres refuses is replaced, not refused.
 */
import type { AuditEntry, AuditLog } from '../audit-log.js';
import { count, type RepoContext } from '../repo-context.js';

export function createAuditLog(ctx: RepoContext): AuditLog {
  return {
    async record(e) {
      await ctx
        .db()
        .insertInto('audit_log')
        .values({
          at_ms: e.atMs,
          user_id: e.userId,
          channel_id: e.channelId ?? null,
          brand_id: e.brandId ?? null,
          action: e.action,
          detail: ctx.sql.json(e.detail ?? {}),
          result: e.result,
        })
        .execute();
    },
    async recent(limit) {
      const rows = await ctx
        .db()
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(
        (r): AuditEntry => ({
          atMs: r.at_ms,
          userId: r.user_id,
          channelId: r.channel_id,
          brandId: r.brand_id,
          action: r.action,
          detail: JSON.parse(r.detail) as Record<string, unknown>,
          result: r.result,
        }),
      );
    },
    async purgeBefore(cutoffMs, limit) {
      const db = ctx.db();
      const old = db
        .selectFrom('audit_log')
        .select('id')
        .where('at_ms', '<', cutoffMs)
        .orderBy('at_ms')
        .limit(limit);
      const r = await db
        .deleteFrom('audit_log')
        .where('id', 'in', ctx.sql.lockRowsSkipLocked(old))
        .executeTakeFirst();
      return count(r.numDeletedRows);
    },
  };
}
