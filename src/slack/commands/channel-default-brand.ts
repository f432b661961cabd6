/** The brand set for a channel with `/visibility use` (table channel_defaults, migration 003). */
import type { Db } from '../../store/open-database.js';

export function channelDefaultBrandId(db: Db, channelId: string): string | undefined {
  const row = db.prepare('SELECT brand_id FROM channel_defaults WHERE channel_id = ?').get(channelId) as
    | { brand_id: string }
    | undefined;
  return row?.brand_id;
}
