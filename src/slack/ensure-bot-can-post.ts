/**
 * Before a channel subscribes, make sure the bot can post there: Slack refuses posts from
 * an app that is not a member (`not_in_channel`), and hides private channels from it
 * altogether (`channel_not_found`). Better to say how to invite it now than to pause the
 * subscription at the first alert.
 */
import type { WebClient } from '@slack/web-api';
import { UserError } from './user-error.js';

export const INVITE_HINT =
  "I'm not a member of this channel, so I could not post alerts or digests here. Invite me first: type `/invite @visibility-bot` in this channel, then run this command again.";

export async function ensureBotCanPost(client: WebClient, channelId: string): Promise<void> {
  let channel: { is_member?: boolean; is_im?: boolean; is_mpim?: boolean } | undefined;
  try {
    channel = (await client.conversations.info({ channel: channelId })).channel;
  } catch (err) {
    const code = (err as { data?: { error?: unknown } }).data?.error;
    if (code === 'channel_not_found') throw new UserError('bot_not_in_channel', INVITE_HINT);
    throw err;
  }
  // Direct messages have no membership to check: the bot is one of the two people there.
  if (channel?.is_member || channel?.is_im || channel?.is_mpim) return;
  throw new UserError('bot_not_in_channel', INVITE_HINT);
}
