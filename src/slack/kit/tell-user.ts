/**
 * A message for one user where there is no response_url (after a modal closed): ephemeral
 * in the channel it was opened from, else (App Home, or the bot is not in that channel) in
 * the app's direct messages.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../logger.js';
import { fitMessage } from '../../messages/block-kit-limits.js';
import type { Reply } from '../../messages/reply.js';

export async function tellUser(
  client: WebClient,
  to: { userId: string; channelId?: string | undefined },
  reply: Reply,
  logger?: Logger,
): Promise<void> {
  const { text, blocks } = fitMessage(reply);
  if (to.channelId) {
    try {
      await client.chat.postEphemeral({ channel: to.channelId, user: to.userId, text, blocks });
      return;
    } catch (err) {
      logger?.debug({ err, channelId: to.channelId }, 'ephemeral confirmation failed; sending a DM instead');
    }
  }
  await client.chat.postMessage({ channel: to.userId, text, blocks });
}
