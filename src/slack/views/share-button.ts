/**
 * "Share in channel": command replies are ephemeral (docs/runtime-contract.md), so a read reply carries a
 * button whose value is the command text; the `vis:share` handler runs that command again
 * and posts the answer in the channel for everyone.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { ActionsBlock } from '../../messages/block-kit-types.js';
import { mrkdwn } from '../../messages/mrkdwn.js';

export const SHARE_ACTION_ID = 'vis:share';
/** The share block's id: the shared copy drops the block it came from. */
export const SHARE_BLOCK_ID = 'vis:share';

/**
 * `commandText` is what follows `/visibility`, e.g. `markets "Acme Analytics"`; prefer a
 * brand id to a name so the re-run finds the same brand whatever the channel's default.
 * A text too long for a button value (2000 chars) is left out rather than cut (a cut
 * command would run something else); the handler then says it cannot share.
 * `leading` are the reply's other controls (the view switcher, a chart button): one
 * actions block per reply, which the shared copy drops whole, since a menu that replaces
 * the message would replace the channel's copy for everybody.
 */
export function shareActionsBlock(
  commandText: string,
  leading: readonly ActionsBlock['elements'][number][] = [],
): ActionsBlock {
  const fits = commandText.trim() !== '' && commandText.length <= L.buttonValue;
  return {
    type: 'actions',
    block_id: SHARE_BLOCK_ID,
    elements: [
      ...leading,
      {
        type: 'button',
        action_id: SHARE_ACTION_ID,
        text: { type: 'plain_text', text: mrkdwn`Share in channel`, emoji: true },
        ...(fits ? { value: commandText } : {}),
      },
    ],
  };
}
