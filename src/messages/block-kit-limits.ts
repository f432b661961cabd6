/**
 * The one place that enforces Slack's Block Kit limits on anything we send: messages
 * (respond(), chat.postMessage), modals and the App Home. A reply that would break a
 * limit is cut to fit, visibly ("…", "…and N more not shown"), instead of failing with
 * invalid_blocks or msg_blocks_too_long and leaving the user with nothing.
 */

import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { KnownBlock, View } from './block-kit-types.js';
import { fitBlock, fitTextObject } from './fit-block.js';
import { type Mrkdwn, mrkdwn } from './mrkdwn.js';
import type { Reply } from './reply.js';
import { truncateId, truncateMrkdwn } from './truncate-mrkdwn.js';

function moreNotice(count: number): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: mrkdwn`…and ${count} more not shown` }] };
}

/** Per-block limits, then at most `maxBlocks` blocks, the last one saying how many were cut. */
function fitBlockList(
  blocks: readonly KnownBlock[],
  maxBlocks: number,
): { kept: KnownBlock[]; dropped: number } {
  const fitted = blocks.map(fitBlock);
  if (fitted.length <= maxBlocks) return { kept: fitted, dropped: 0 };
  return { kept: fitted.slice(0, maxBlocks - 1), dropped: fitted.length - (maxBlocks - 1) };
}

function withNotice(kept: KnownBlock[], dropped: number): KnownBlock[] {
  return dropped > 0 ? [...kept, moreNotice(dropped)] : kept;
}

/** Drops blocks from the end until the serialised list fits `budget` characters. */
function fitCharBudget(kept: KnownBlock[], dropped: number, budget: number): KnownBlock[] | undefined {
  const sizes = kept.map((b) => JSON.stringify(b).length);
  const total = (k: number, more: number) =>
    2 +
    sizes.slice(0, k).reduce((a, s) => a + s + 1, 0) +
    (more > 0 ? JSON.stringify(moreNotice(more)).length : 0);
  for (let k = kept.length; k >= 1; k -= 1) {
    const more = dropped + kept.length - k;
    if (total(k, more) <= budget) return withNotice(kept.slice(0, k), more);
  }
  return undefined;
}

function fallbackText(reply: Reply): Mrkdwn {
  if (reply.text.trim() !== '') return reply.text;
  for (const b of reply.blocks) {
    const t = 'text' in b ? b.text : undefined;
    if (typeof t === 'object' && t !== null && t.text.trim() !== '') return t.text;
  }
  return mrkdwn`Brand Visibility`;
}

/** A message (reply or post) that respects every message limit. */
export function fitMessage(reply: Reply): Reply {
  const text = truncateMrkdwn(fallbackText(reply), L.fallbackText);
  const { kept, dropped } = fitBlockList(reply.blocks, L.messageBlocks);
  const blocks = fitCharBudget(kept, dropped, L.messageBlocksChars) ?? [
    // Not even the first block fits (a freak payload): say what we can in one section.
    { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(text, L.sectionText) } },
  ];
  return { ...reply, text, blocks };
}

/** A modal or App Home view that respects every view limit. */
export function fitView<V extends View>(view: V): V {
  const { kept, dropped } = fitBlockList(view.blocks as KnownBlock[], L.viewBlocks);
  const out = { ...view, blocks: withNotice(kept, dropped) } as V & Record<string, unknown>;
  for (const key of ['title', 'submit', 'close'] as const) {
    if (key in out) (out as Record<string, unknown>)[key] = fitTextObject(out[key], L.viewTitle);
  }
  for (const key of ['callback_id', 'external_id'] as const) {
    const v = out[key];
    if (typeof v === 'string') (out as Record<string, unknown>)[key] = truncateId(v, L.callbackId);
  }
  // private_metadata is ours (JSON); cutting it breaks it, but Slack would refuse the whole
  // view otherwise. Builders keep it to ids, far below the limit.
  if (typeof out.private_metadata === 'string') {
    out.private_metadata = truncateId(out.private_metadata, L.privateMetadata);
  }
  return out;
}
