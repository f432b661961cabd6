/** Writes for `/visibility use` (the read is channel-default-brand.ts; store/channel-defaults-repo.ts). */
import { type ChannelDefault, createChannelDefaultsRepo } from '../../../store/channel-defaults-repo.js';
import type { Db } from '../../../store/open-database.js';

export function saveChannelDefaultBrand(db: Db, row: ChannelDefault): Promise<void> {
  return createChannelDefaultsRepo(db).set(row);
}

/** True when the channel had a default. */
export function clearChannelDefaultBrand(db: Db, channelId: string): Promise<boolean> {
  return createChannelDefaultsRepo(db).clear(channelId);
}
