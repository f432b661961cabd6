/**
 * "Post chart to channel": a view's figures as an image. Slack has no ephemeral files, so
 * the chart is posted in the channel for everyone, and the button says so rather than
 * surprising whoever clicks it (a DM would hide the chart from the people the reply is
 * about, and the reply itself can be shared with "Share in channel" next to it).
 *
 * The button joins the "Share in channel" row when there is one (both act on the reply
 * as a whole); the value is the handler's own JSON, e.g. {"brandId":"…","days":30}.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../messages/block-kit-types.js';
import { mrkdwn } from '../../messages/mrkdwn.js';
import type { Reply } from '../../messages/reply.js';
import { SHARE_BLOCK_ID } from './share-button.js';
import { jsonLength } from './take-lines-within.js';

/** `vis:chart:<view>`; each feature registers the handler of its view. */
export const CHART_ACTION_PREFIX = 'vis:chart:';
const CHART_BUTTON_LABEL = mrkdwn`Post chart to channel`;

export function withChartButton(reply: Reply, view: string, value: Record<string, unknown>): Reply {
  const json = JSON.stringify(value);
  if (json.length > L.buttonValue) return reply;
  const button: Button = {
    type: 'button',
    action_id: `${CHART_ACTION_PREFIX}${view}`,
    text: { type: 'plain_text', text: CHART_BUTTON_LABEL, emoji: true },
    value: json,
  };
  const row = reply.blocks.find((b) => b.type === 'actions' && b.block_id === SHARE_BLOCK_ID);
  const blocks: KnownBlock[] =
    row?.type === 'actions' && row.elements.length < L.actionsElements
      ? reply.blocks.map((b) => (b === row ? { ...row, elements: [...row.elements, button] } : b))
      : [...reply.blocks, { type: 'actions', elements: [button] }];
  // A reply already at Slack's size goes without the button rather than losing its own blocks.
  if (blocks.length > L.messageBlocks || jsonLength(blocks) > L.messageBlocksChars) return reply;
  return { ...reply, blocks };
}
