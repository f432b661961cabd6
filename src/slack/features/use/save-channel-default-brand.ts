/** Writes for `/visibility use` (the read is channel-default-brand.ts; table from migration 003). */
import type { Db } from '../../../store/open-database.js';

export function saveChannelDefaultBrand(
  db: Db,
  row: { channelId: string; brandId: string; setBy: string; atMs: number },
): void {
  db.prepare(
    `INSERT INTO channel_defaults (channel_id, brand_id, set_by, set_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (channel_id) DO UPDATE SET brand_id = excluded.brand_id, set_by = excluded.set_by, set_at_ms = excluded.set_at_ms`,
  ).run(row.channelId, row.brandId, row.setBy, row.atMs);
}

/** True when the channel had a default. */
export function clearChannelDefaultBrand(db: Db, channelId: string): boolean {
  return db.prepare('DELETE FROM channel_defaults WHERE channel_id = ?').run(channelId).changes > 0;
}
