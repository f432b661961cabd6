import type { Store } from '../../store/store.js';

export function channelDefaultBrandId(store: Store, channelId: string): Promise<string | undefined> {
  return store.channelDefaults.get(channelId);
}
