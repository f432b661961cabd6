/**
 * Builds a message again with less room for its lists until its blocks fit Slack's
 * ~12 k characters: lists are sized in mrkdwn characters, but JSON escaping (quotes,
 * backslashes) can nearly double what they weigh on the wire.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../messages/block-kit-types.js';

export function shrinkUntilFits<T extends { blocks: KnownBlock[] }>(
  build: (room: number) => T,
  room: number,
  minRoom = 300,
): T {
  let current = room;
  let out = build(current);
  while (JSON.stringify(out.blocks).length > L.messageBlocksChars && current > minRoom) {
    current = Math.max(minRoom, Math.floor(current * 0.75));
    out = build(current);
  }
  return out;
}
