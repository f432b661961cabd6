/**
 * A table as data (columns and rows of plain-text cells), built once and drawn by a
 * renderer: as Slack's own `data_table` block (nativeTable), or as an aligned monospace
 * block (textTable), without the builders that fill it changing. Cells are plain text, a
 * figure also carrying its number (so Slack sorts the column by value); the renderer escapes.
 */
import { dataTable, type NativeTable, type TableCell } from '../../messages/data-table.js';
import { escapeMrkdwn, type Mrkdwn } from '../../messages/mrkdwn.js';
import { cutAtWord } from './cut-at-word.js';

export interface TableColumn {
  label: string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
}

/** A figure: its number, and the words it is shown as ("1,204", "120 ms"). */
export interface NumberValue {
  number: number;
  text: string;
}

/** Words shown as a link to a web address (a page by its title). */
export interface LinkValue {
  url: string;
  text: string;
}

export type TableValue = string | NumberValue | LinkValue;

export interface TableModel {
  columns: readonly TableColumn[];
  rows: readonly (readonly TableValue[])[];
}

export const valueText = (value: TableValue | undefined): string =>
  value === undefined ? '' : typeof value === 'string' ? value : value.text;

const oneLine = (text: string) => escapeMrkdwn(text.replace(/\s+/g, ' ').trim());

function nativeCell(value: TableValue | undefined): TableCell {
  if (value === undefined || typeof value === 'string') return oneLine(valueText(value));
  if ('url' in value) return { url: value.url, text: oneLine(value.text) };
  return { number: value.number, text: escapeMrkdwn(value.text) };
}

/**
 * The table as Slack's `data_table` block (and its text lines): figures as `raw_number`
 * cells, every cell escaped here (API text stays data).
 */
export function nativeTable(
  model: TableModel,
  options: { caption: string; pageSize?: number; blockId?: string },
): NativeTable {
  return dataTable({
    caption: escapeMrkdwn(options.caption),
    header: model.columns.map((c) => escapeMrkdwn(c.label)),
    rows: model.rows.map((row) => model.columns.map((_, i) => nativeCell(row[i]))),
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    ...(options.blockId !== undefined ? { blockId: options.blockId } : {}),
  });
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
    model.columns.map((_, i) => cutAtWord(valueText(row[i]).replace(/\s+/g, ' ').trim(), MAX_CELL)),
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
