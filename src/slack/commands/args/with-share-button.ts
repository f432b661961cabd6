import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { ActionsBlock } from '../../../messages/block-kit-types.js';
import type { Reply } from '../../../messages/reply.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { jsonLength } from '../../views/take-lines-within.js';

/**
 * Read replies are ephemeral (docs/runtime-contract.md); this adds the button that posts them in the
 * channel. Builders leave room for it; a reply so full that the button would push it over
 * Slack's size goes without one rather than losing its own last blocks. `leading` (the
 * view switcher, for one) share the button's actions block.
 */
export function withShareButton(
  reply: Reply,
  text: string,
  leading: readonly (ActionsBlock['elements'][number] | undefined)[] = [],
): Reply {
  const controls = leading.filter((e): e is ActionsBlock['elements'][number] => e !== undefined);
  // The full block first, then the button alone: a bigger control must not cost the share.
  for (const elements of controls.length > 0 ? [controls, []] : [[]]) {
    const blocks = [...reply.blocks, shareActionsBlock(text, elements)];
    if (blocks.length <= L.messageBlocks && jsonLength(blocks) <= L.messageBlocksChars)
      return { ...reply, blocks };
  }
  return reply;
}
