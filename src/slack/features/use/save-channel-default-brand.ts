/** Writes for `/visibility use` (the read is channel-default-brand.ts; store/channel-defaults-repo.ts). */

import type { ChannelDefault } from '../../../store/channel-defaults-repo.js';
import type { Store } from '../../../store/store.js';

export function saveChannelDefaultBrand(store: Store, row: ChannelDefault): Promise<void> {
  return store.channelDefaults.set(row);
}

/** True when the channel had a default. */
export function clearChannelDefaultBrand(store: Store, channelId: string): Promise<boolean> {
  return store.channelDefaults.clear(channelId);
}
