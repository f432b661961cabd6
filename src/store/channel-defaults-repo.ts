/**
 * A channel's default brand, set with `/visibility use` (table channel_defaults, migration
 * 003): brand commands in that channel may leave the brand out.
 */
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
