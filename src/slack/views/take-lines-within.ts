/**
 * How many lines of a list fit a message. fitMessage() would cut an over-long reply from
 * the end, which would drop the paging buttons that come last; builders therefore measure
 * their fixed blocks first, give the list what is left, and say how many were left out.
 * Sizes are serialised JSON, the way fitMessage measures (escapes make some text grow).
 */
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';

export const jsonLength = (value: unknown): number => JSON.stringify(value).length;

/**
 * What a builder may fill: fitMessage's budget less room for the actions block added under
 * it (Share, and the View menu: six to a dozen options of ~100 characters each).
 */
export const MESSAGE_BUDGET = L.messageBlocksChars - 1800;

/** Section wrappers around the kept lines (one per ~3000 characters of text). */
const SECTION_OVERHEAD = 250;

/** Characters left for a list once `blocks` are in the message. */
export function roomLeft(blocks: readonly unknown[], budget = MESSAGE_BUDGET): number {
  return (
    budget -
    2 -
    blocks.reduce<number>((n, b) => n + (b === undefined ? 0 : jsonLength(b) + 1), 0) -
    SECTION_OVERHEAD
  );
}

export function takeLinesWithin<T extends string>(
  lines: readonly T[],
  budget: number,
): { kept: T[]; dropped: number } {
  const kept: T[] = [];
  let used = 0;
  for (const line of lines) {
    // The line's JSON plus the escaped newline that joins it to the next.
    const size = jsonLength(line) + 2;
    if (used + size > budget) break;
    kept.push(line);
    used += size;
  }
  return { kept, dropped: lines.length - kept.length };
}
