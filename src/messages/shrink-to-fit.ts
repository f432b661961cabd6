/**
 * Blocks built with sections of at most `sectionMax` characters, shrunk until the whole
 * message fits Slack's block budget: long sections of the digest and the weekly summary
 * give way first, and what does not fit says how many more there are.
 */
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { KnownBlock } from './block-kit-types.js';

/** Four sections of 2,500 characters plus the rest fit the budget in nearly every case. */
const FIRST_SECTION_MAX = 2500;
const LAST_SECTION_MAX = 200;

export function shrinkToFit(build: (sectionMax: number) => KnownBlock[]): KnownBlock[] {
  let sectionMax = FIRST_SECTION_MAX;
  let blocks = build(sectionMax);
  // JSON escaping can push it over: shrink until it fits.
  while (JSON.stringify(blocks).length > L.messageBlocksChars && sectionMax > LAST_SECTION_MAX) {
    sectionMax = Math.floor(sectionMax * 0.8);
    blocks = build(sectionMax);
  }
  return blocks;
}
