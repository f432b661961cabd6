/**
 * SnoozesRepo on Postgres (snoozes-repo.ts has the contract). Snoozing is one
 * INSERT … ON CONFLICT … DO UPDATE: replicas snoozing the same kind at once leave one row
 * with the last end written, never a duplicate-key error.
 */
import { type Snooze, type SnoozeRow, type SnoozesRepo, snoozeFromRow } from '../snoozes-repo.js';
import type { PgPool } from './create-pool.js';
import { pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

type Row = SnoozeRow;

export function createPgSnoozesRepo(pool: PgPool): SnoozesRepo {
  // Ids and kinds come from Slack buttons: cleaned the same way when written and looked up.
  const query = <R extends object = Row>(sql: string, params: unknown[]) =>
    pgExecutor(pool).query<R>(
      sql,
      params.map((p) => (typeof p === 'string' ? pgText(p) : p)),
    );
  return {
    async snooze(s: Snooze) {
      await query(
        `INSERT INTO snoozes (channel_id, brand_id, kind, until_ms, created_by, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (channel_id, brand_id, kind) DO UPDATE SET
           until_ms = EXCLUDED.until_ms, created_by = EXCLUDED.created_by, created_at_ms = EXCLUDED.created_at_ms`,
        [s.channelId, s.brandId, s.kind, s.untilMs, s.createdBy, s.createdAtMs],
      );
    },
    async active(channelId, brandId, nowMs) {
      const { rows } = await query<Pick<Row, 'kind' | 'until_ms'>>(
        'SELECT kind, until_ms FROM snoozes WHERE channel_id = $1 AND brand_id = $2 AND until_ms > $3',
        [channelId, brandId, nowMs],
      );
      return new Map(rows.map((r) => [r.kind, r.until_ms]));
    },
    async listActive(nowMs) {
      // kind and channel break ties so every backend lists the same order.
      const { rows } = await query(
        'SELECT * FROM snoozes WHERE until_ms > $1 ORDER BY until_ms, channel_id, brand_id, kind',
        [nowMs],
      );
      return rows.map(snoozeFromRow);
    },
    async clear(channelId, brandId, kind) {
      const { rowCount } =
        kind === undefined
          ? await query('DELETE FROM snoozes WHERE channel_id = $1 AND brand_id = $2', [channelId, brandId])
          : await query('DELETE FROM snoozes WHERE channel_id = $1 AND brand_id = $2 AND kind = $3', [
              channelId,
              brandId,
              kind,
            ]);
      return rowCount ?? 0;
    },
    async purgeExpired(nowMs) {
      const { rowCount } = await query('DELETE FROM snoozes WHERE until_ms <= $1', [nowMs]);
      return rowCount ?? 0;
    },
  };
}
