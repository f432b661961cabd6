import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { Reply } from '../../../messages/reply.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { jsonLength } from '../../views/take-lines-within.js';

/**
 * Read replies are ephemeral (DESIGN.md); this adds the button that posts them in the
 * channel. Builders leave room for it; a reply so full that the button would push it over
 * Slack's size goes without one rather than losing its own last blocks.
 */
export function withShareButton(reply: Reply, text: string): Reply {
  const blocks = [...reply.blocks, shareActionsBlock(text)];
  if (blocks.length > L.messageBlocks || jsonLength(blocks) > L.messageBlocksChars) return reply;
  return { ...reply, blocks };
}
