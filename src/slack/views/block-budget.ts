/**
 * Room left in one message while a builder adds blocks: Slack's 50 blocks and the ~12 k
 * characters of serialised blocks (docs/slack.md). Builders reserve their fixed blocks first,
 * then add list blocks while they fit and end with "…and N more" instead of letting the
 * central fitter cut the buttons off the end.
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../messages/block-kit-types.js';

export const blockSize = (b: unknown): number => JSON.stringify(b).length + 1;

export class BlockBudget {
  private blocksLeft: number;
  private charsLeft: number;

  /** `fixed` are the blocks that will be sent whatever happens; `reserveChars` keeps room for a "more" line. */
  constructor(fixed: readonly KnownBlock[], reserveChars = 300, maxBlocks: number = L.messageBlocks) {
    this.blocksLeft = maxBlocks - fixed.length - 1;
    this.charsLeft = L.messageBlocksChars - 2 - fixed.reduce((n, b) => n + blockSize(b), 0) - reserveChars;
  }

  fits(block: KnownBlock): boolean {
    return this.blocksLeft >= 1 && blockSize(block) <= this.charsLeft;
  }

  /** Adds `block` to `out` when it fits; false otherwise (nothing added). */
  add(out: KnownBlock[], block: KnownBlock): boolean {
    if (!this.fits(block)) return false;
    out.push(block);
    this.blocksLeft -= 1;
    this.charsLeft -= blockSize(block);
    return true;
  }

  /** Characters a section's text may still use (the JSON around it costs ~60). */
  textRoom(): number {
    return this.blocksLeft >= 1 ? Math.min(L.sectionText, this.charsLeft - 60) : 0;
  }
}
