/**
 * Before a conversation subscribes, make sure alerts can really be delivered there.
 *
 * - Only channels (public or private). In a DM or a group DM the bot could post, but its
 *   scopes (channels:/groups: read and history) do not cover conversations.info and
 *   conversations.history there, and the outbox needs history to post each alert
 *   effectively once: every alert would later fail with missing_scope. The command's
 *   payload says where it was typed (channel ids starting with D are DMs; channel_name is
 *   `directmessage` in a DM and `mpdm-…` in a group DM, whose ids may start with G like an
 *   old private channel's), and conversations.info confirms it (is_im, is_mpim, or a
 *   missing_scope answer, which only a DM or group DM gives with our scopes).
 * - The bot must be a member: Slack refuses posts from an app that is not one
 *   (`not_in_channel`), and hides private channels from it altogether
 *   (`channel_not_found`). Better to say how to invite it now than to pause the
 *   subscription at the first alert.
 */
import type { WebClient } from '@slack/web-api';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';

const INVITE_HINT = mrkdwn`I'm not a member of this channel, so I could not post alerts or digests here. Invite me first: type \`/invite @visibility-bot\` in this channel, then run this command again.`;

export const CHANNELS_ONLY_HINT = mrkdwn`Alerts and digests go to channels, not to direct messages or group DMs: I cannot read the history of a DM, which I need to post each alert exactly once. Run this command in the channel that should receive them (public or private; invite me there with \`/invite @visibility-bot\`).`;

/** From the command payload alone: typed in a DM or a group DM. */
export function isDirectConversation(channelId: string, channelName: string | undefined): boolean {
  return (
    channelId.startsWith('D') || channelName === 'directmessage' || channelName?.startsWith('mpdm-') === true
  );
}

/** The caller refuses a DM it can tell from the payload (isDirectConversation) before this. */
export async function ensureBotCanPost(client: WebClient, channelId: string): Promise<void> {
  let channel: { is_member?: boolean; is_im?: boolean; is_mpim?: boolean } | undefined;
  try {
    channel = (await client.conversations.info({ channel: channelId })).channel;
  } catch (err) {
    const code = (err as { data?: { error?: unknown } }).data?.error;
    if (code === 'channel_not_found') throw new UserError(UserErrorCode.BotNotInChannel, INVITE_HINT);
    if (code === 'missing_scope') throw new UserError(UserErrorCode.NotAChannel, CHANNELS_ONLY_HINT);
    throw err;
  }
  if (channel?.is_im || channel?.is_mpim) throw new UserError(UserErrorCode.NotAChannel, CHANNELS_ONLY_HINT);
  if (channel?.is_member) return;
  throw new UserError(UserErrorCode.BotNotInChannel, INVITE_HINT);
}
