/**
 * "Snooze" on an alert mutes that kind of alert for that brand in that channel (DESIGN.md).
 * Snoozing again extends or shortens to the new end; expired rows are harmless and purged.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export interface Snooze {
  channelId: string;
  brandId: string;
  kind: string;
  untilMs: number;
  createdBy: string | null;
  createdAtMs: number;
}

export interface SnoozesRepo {
  snooze(s: Snooze): Promise<void>;
  /** Kinds snoozed now for (channel, brand), with when each snooze ends. */
  active(channelId: string, brandId: string, nowMs: number): Promise<Map<string, number>>;
  /** Every snooze still running, for status views. */
  listActive(nowMs: number): Promise<Snooze[]>;
  clear(channelId: string, brandId: string, kind?: string): Promise<number>;
  purgeExpired(nowMs: number): Promise<number>;
}

/** A snoozes row, as both backends return it. */
export interface SnoozeRow {
  channel_id: string;
  brand_id: string;
  kind: string;
  until_ms: number;
  created_by: string | null;
  created_at_ms: number;
}
type Row = SnoozeRow;

export const snoozeFromRow = (r: SnoozeRow): Snooze => ({
  channelId: r.channel_id,
  brandId: r.brand_id,
  kind: r.kind,
  untilMs: r.until_ms,
  createdBy: r.created_by,
  createdAtMs: r.created_at_ms,
});

export function createSnoozesRepo(db: Db): SnoozesRepo {
  const upsert = db.prepare(
    `INSERT INTO snoozes (channel_id, brand_id, kind, until_ms, created_by, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (channel_id, brand_id, kind) DO UPDATE SET
       until_ms = excluded.until_ms, created_by = excluded.created_by, created_at_ms = excluded.created_at_ms`,
  );
  const activeFor = db.prepare(
    'SELECT kind, until_ms FROM snoozes WHERE channel_id = ? AND brand_id = ? AND until_ms > ?',
  );
  const allActive = db.prepare('SELECT * FROM snoozes WHERE until_ms > ? ORDER BY until_ms');
  const clearKind = db.prepare('DELETE FROM snoozes WHERE channel_id = ? AND brand_id = ? AND kind = ?');
  const clearAll = db.prepare('DELETE FROM snoozes WHERE channel_id = ? AND brand_id = ?');
  const purge = db.prepare('DELETE FROM snoozes WHERE until_ms <= ?');
  return asyncRepo<SnoozesRepo>(db, {
    snooze(s) {
      upsert.run(s.channelId, s.brandId, s.kind, s.untilMs, s.createdBy, s.createdAtMs);
    },
    active(channelId, brandId, nowMs) {
      const rows = activeFor.all(channelId, brandId, nowMs) as Pick<Row, 'kind' | 'until_ms'>[];
      return new Map(rows.map((r) => [r.kind, r.until_ms]));
    },
    listActive: (nowMs) => (allActive.all(nowMs) as Row[]).map(snoozeFromRow),
    clear: (channelId, brandId, kind) =>
      (kind === undefined ? clearAll.run(channelId, brandId) : clearKind.run(channelId, brandId, kind))
        .changes,
    purgeExpired: (nowMs) => purge.run(nowMs).changes,
  });
}
