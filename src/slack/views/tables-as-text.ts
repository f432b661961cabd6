/**
 * Where Slack does not draw its own `data_table` block (a workspace or client that does
 * not have it yet answers `invalid_blocks`), the same reply goes out with each table as
 * lines of text instead: the caption in bold, then one line per row ("GPTBot — Visits:
 * 1,204 · Last seen: Nov 27, 2026"). Pure, so whatever remembers that a workspace refuses
 * the newer blocks can use it before sending as well as after a refusal.
 */
import type { DataTableBlock, KnownBlock } from '../../messages/block-kit-types.js';
import { dataTableLines } from '../../messages/data-table.js';
import { joinMrkdwn, type Mrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import type { Reply } from '../../messages/reply.js';
import { truncateMrkdwn } from '../../messages/truncate-mrkdwn.js';
import { chunkSections } from './chunk-sections.js';

const isDataTable = (block: KnownBlock): block is KnownBlock & DataTableBlock => block.type === 'data_table';

export const hasNativeTable = (blocks: readonly KnownBlock[]): boolean => blocks.some(isDataTable);

/** A table's lines for a section: the caption as a heading, each row as a bullet. */
function tableText(block: DataTableBlock): Mrkdwn[] {
  const [caption = mrkdwn``, ...rows] = dataTableLines(block);
  return [mrkdwn`*${caption}*`, ...rows.map((row) => mrkdwn`• ${row}`)];
}

/** The blocks with every `data_table` replaced by sections of its lines; the rest unchanged. */
function tablesAsTextBlocks(blocks: readonly KnownBlock[]): KnownBlock[] {
  return blocks.flatMap((block) => (isDataTable(block) ? chunkSections(tableText(block)) : [block]));
}

/** The reply with its tables as text (its notification text unchanged). */
export function tablesAsText(reply: Reply): Reply {
  return { ...reply, blocks: tablesAsTextBlocks(reply.blocks) };
}

/** The tables among `blocks` as text (their lines), or undefined when there is none. */
export function tablesText(blocks: readonly KnownBlock[]): Mrkdwn | undefined {
  const tables = blocks.filter(isDataTable);
  if (tables.length === 0) return undefined;
  return joinMrkdwn(
    tables.flatMap((t) => dataTableLines(t)),
    mrkdwn`\n`,
  );
}

/**
 * A reply's text when it holds a table: the sentence first (notifications show it), then
 * the table's lines, for clients that show the text and not the blocks. Bounded well under
 * the 4,000 characters Slack recommends.
 */
export function textWithTable(sentence: Mrkdwn, tableText: Mrkdwn, max = 3000): Mrkdwn {
  return truncateMrkdwn(mrkdwn`${sentence}\n${tableText}`, max);
}
