/**
 * A channel's default brand, set with `/visibility use` (table channel_defaults, migration
 * 003): brand commands in that channel may leave the brand out.
 */
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export interface ChannelDefault {
  channelId: string;
  brandId: string;
  setBy: string;
  atMs: number;
}

export interface ChannelDefaultsRepo {
  /** The channel's default brand id, or undefined when it has none. */
  get(channelId: string): Promise<string | undefined>;
  set(row: ChannelDefault): Promise<void>;
  /** True when the channel had a default. */
  clear(channelId: string): Promise<boolean>;
}

export function createChannelDefaultsRepo(db: Db): ChannelDefaultsRepo {
  const select = db.prepare('SELECT brand_id FROM channel_defaults WHERE channel_id = ?').pluck();
  const upsert = db.prepare(
    `INSERT INTO channel_defaults (channel_id, brand_id, set_by, set_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (channel_id) DO UPDATE SET brand_id = excluded.brand_id, set_by = excluded.set_by, set_at_ms = excluded.set_at_ms`,
  );
  const remove = db.prepare('DELETE FROM channel_defaults WHERE channel_id = ?');
  return asyncRepo<ChannelDefaultsRepo>(db, {
    get: (channelId) => select.get(channelId) as string | undefined,
    set(row) {
      upsert.run(row.channelId, row.brandId, row.setBy, row.atMs);
    },
    clear: (channelId) => remove.run(channelId).changes > 0,
  });
}
