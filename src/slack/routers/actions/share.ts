/**
 * "Share in channel" (vis:share): the button's value is the command text; the command
 * runs again and its answer is posted in the channel for everyone, without the share
 * button and with who shared it. Errors still go only to the person who clicked.
 */

import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { mrkdwn, userMention } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { SHARE_ACTION_ID, SHARE_BLOCK_ID } from '../../views/share-button.js';
import { parseSubcommandText, runSubcommandFromAction } from './run-subcommand-from-action.js';

export function sharedCopy(reply: Reply, userId: string): Reply {
  const blocks: KnownBlock[] = reply.blocks.filter((b) => b.block_id !== SHARE_BLOCK_ID);
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: mrkdwn`Shared by ${userMention(userId)}` }],
  });
  return { ...reply, blocks, responseType: 'in_channel', replaceOriginal: false };
}

export const share: ActionHandler = {
  prefix: SHARE_ACTION_ID,
  async run(ctx) {
    const text = ctx.action.value?.trim();
    if (!text)
      throw new UserError(
        UserErrorCode.ShareUnavailable,
        mrkdwn`This reply is too long to share; run the command again and copy what you need.`,
      );
    if (!ctx.channelId)
      throw new UserError(UserErrorCode.ShareUnavailable, mrkdwn`There is no channel to share this in.`);
    await runSubcommandFromAction(ctx, parseSubcommandText(text), (reply) =>
      ctx.respond(sharedCopy(reply, ctx.userId)),
    );
  },
};
