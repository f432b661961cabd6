/**
 * A table as data (columns and rows of plain-text cells), built once and drawn by a
 * renderer: today as an aligned monospace block, later as Slack's own `data_table` block,
 * without the builders that fill it changing. Cells are plain text; the renderer escapes.
 */
import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';
import { cutAtWord } from './cut-at-word.js';

export interface TableColumn {
  label: string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
}

export interface TableModel {
  columns: readonly TableColumn[];
  rows: readonly (readonly string[])[];
}

/** A cell wider than this is shortened (at a word): one long cell would widen every row. */
const MAX_CELL = 28;
const GAP = '  ';

const pad = (text: string, width: number, align: TableColumn['align']) =>
  align === 'right' ? text.padStart(width) : text.padEnd(width);

/** Columns from the left while the row stays within `maxWidth` characters (the first always). */
function columnsThatFit(widths: readonly number[], maxWidth: number): number {
  let used = 0;
  let n = 0;
  for (const w of widths) {
    const next = used + (n === 0 ? 0 : GAP.length) + w;
    if (n > 0 && next > maxWidth) break;
    used = next;
    n += 1;
  }
  return n;
}

/**
 * The table as lines of aligned text inside a code block (Slack draws it in a fixed-width
 * font), at most `maxWidth` characters a line: columns that do not fit are left out from
 * the right, so order the columns by importance.
 */
export function textTable(model: TableModel, maxWidth = 96): Mrkdwn {
  const cells = [model.columns.map((c) => c.label), ...model.rows].map((row) =>
    model.columns.map((_, i) =>
      cutAtWord(
        String(row[i] ?? '')
          .replace(/\s+/g, ' ')
          .trim(),
        MAX_CELL,
      ),
    ),
  );
  const widths = model.columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const shown = columnsThatFit(widths, maxWidth);
  const lines = cells.map((row) =>
    row
      .slice(0, shown)
      .map((cell, i) => pad(cell, widths[i]!, model.columns[i]!.align))
      .join(GAP)
      .trimEnd(),
  );
  // Backticks would close the block early.
  return escapeMrkdwn(`\`\`\`${lines.join('\n').replace(/`/g, "'")}\`\`\``);
}
