/** The brand set for a channel with `/visibility use` (store/channel-defaults-repo.ts). */
import { createChannelDefaultsRepo } from '../../store/channel-defaults-repo.js';
import type { Db } from '../../store/open-database.js';

export function channelDefaultBrandId(db: Db, channelId: string): Promise<string | undefined> {
  return createChannelDefaultsRepo(db).get(channelId);
}
