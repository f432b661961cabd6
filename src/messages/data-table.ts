/**
 * Records as Slack's own table: a `data_table` block (caption, a header row, up to 100
 * rows, a page size) whose number cells are `raw_number`, so a reader can sort a column
 * by value, not alphabetically. Every table comes with a text line per row stating the
 * same figures: Slack shows it in notifications and where the block is not drawn.
 *
 * Cut to Slack's limits by construction (columns, rows, characters across all cells), the
 * way fitMessage cuts a reply: visibly, the text saying how many rows were left out.
 * Caption and cells are plain strings, not text objects; they are `Mrkdwn` all the same,
 * escaped like every other text we send (Slack decodes `&amp;`, `&lt;`, `&gt;` for
 * display), and the limits are counted on the escaped text, which is never shorter.
 */
import { countText, NO_FIGURE } from '../figures/number-text.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { DataTableBlock, DataTableCell } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, mrkdwnLink, safeLinkUrl } from './mrkdwn.js';
import { truncatePlain } from './truncate-mrkdwn.js';

/** A number Slack sorts as one; shown as `text`, by default the shared number format. */
export interface NumberCell {
  number: number | null | undefined;
  text?: Mrkdwn;
}

/** Text shown as a link to `url` (a page by its title); plain text when `url` is not a web address. */
export interface LinkCell {
  url: string;
  text: Mrkdwn;
}

/** Text as it is, a number, or a link. */
export type TableCell = Mrkdwn | NumberCell | LinkCell;

interface TableModel {
  /** What the table is; also the first line of the text fallback. */
  caption: Mrkdwn;
  header: readonly Mrkdwn[];
  rows: readonly (readonly TableCell[])[];
  /** Rows per page; default 10. */
  pageSize?: number;
  /** The column naming each row (for screen readers); default the first. */
  rowHeaderColumn?: number;
  blockId?: string;
}

export interface NativeTable {
  /** undefined when there is no row to show: a data_table needs one besides the header. */
  block: DataTableBlock | undefined;
  /** The caption, then one line per row shown, then how many were left out. */
  text: Mrkdwn;
  /** Rows not in the block (past 100, or past the character budget). */
  omitted: number;
}

const DEFAULT_PAGE_SIZE = 10;
/**
 * Ours, not Slack's: one cell at most this long, so one long title cannot take the whole
 * 10,000-character budget of the table. Smaller when there are many columns.
 */
const MAX_CELL_CHARS = 300;

const nonEmpty = (text: Mrkdwn): Mrkdwn => (text.trim() === '' ? escapeMrkdwn(NO_FIGURE) : text);

/** Longer addresses are not linked: the link would eat the table's character budget. */
const MAX_LINKED_URL = 500;

function linkCell(cell: LinkCell, maxChars: number): DataTableCell {
  const text = truncatePlain(nonEmpty(cell.text), maxChars);
  const url = safeLinkUrl(cell.url);
  if (url === undefined || url.length > MAX_LINKED_URL) return { type: 'raw_text', text };
  return {
    type: 'rich_text',
    elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url, text }] }],
  };
}

/** What a cell shows, as mrkdwn: its text, a link cell as a link. */
function cellText(cell: DataTableCell): Mrkdwn {
  if (cell.type !== 'rich_text') return cell.text;
  const { url, text } = cell.elements[0].elements[0];
  const plain = text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return mrkdwnLink(url, plain);
}

/** Characters of a cell Slack counts against the table: the text shown, not the address. */
const shownChars = (cell: DataTableCell): number =>
  cell.type === 'rich_text' ? cell.elements[0].elements[0].text.length : cell.text.length;

function toCell(cell: TableCell | undefined, maxChars: number): DataTableCell {
  if (cell === undefined) return { type: 'raw_text', text: escapeMrkdwn(NO_FIGURE) };
  if (typeof cell === 'string') return { type: 'raw_text', text: truncatePlain(nonEmpty(cell), maxChars) };
  if ('url' in cell) return linkCell(cell, maxChars);
  const finite = typeof cell.number === 'number' && Number.isFinite(cell.number);
  const shown = cell.text ?? escapeMrkdwn(countText(cell.number));
  // A missing figure stays a raw_number (sorted as 0, shown as "—"): one raw_text cell
  // would turn the whole column's sort alphabetical.
  return { type: 'raw_number', value: finite ? (cell.number as number) : 0, text: nonEmpty(shown) };
}

const cellChars = (row: readonly DataTableCell[]) => row.reduce((n, c) => n + shownChars(c), 0);

/** One row as a line: the row's name, then each other column as "Header: value". */
function rowLine(header: readonly Mrkdwn[], row: readonly DataTableCell[], nameColumn: number): Mrkdwn {
  const rest = row
    .map((cell, i) => (i === nameColumn ? undefined : mrkdwn`${header[i]!}: ${cellText(cell)}`))
    .filter((part): part is Mrkdwn => part !== undefined);
  const name = row[nameColumn] ? cellText(row[nameColumn]) : escapeMrkdwn(NO_FIGURE);
  return rest.length === 0 ? name : mrkdwn`${name} — ${joinMrkdwn(rest, mrkdwn` · `)}`;
}

/**
 * A table block as lines of text (the caption, then a line per row): what a reader is shown
 * where Slack does not draw the table.
 */
export function dataTableLines(block: DataTableBlock): Mrkdwn[] {
  const [headerRow = [], ...rows] = block.rows;
  const header = headerRow.map(cellText);
  const nameColumn = block.row_header_column_index ?? 0;
  return [block.caption, ...rows.map((row) => rowLine(header, row, nameColumn))];
}

/** The `data_table` block and its text for `model`, cut to Slack's limits. */
export function dataTable(model: TableModel): NativeTable {
  const width = Math.min(Math.max(model.header.length, 1), L.tableColumns);
  const maxChars = Math.min(MAX_CELL_CHARS, Math.floor(L.tableChars / (2 * width)));
  const header = Array.from({ length: width }, (_, i) =>
    truncatePlain(nonEmpty(model.header[i] ?? escapeMrkdwn('')), maxChars),
  );
  const headerRow: DataTableCell[] = header.map((text) => ({ type: 'raw_text', text }));
  const nameColumn = Math.min(Math.max(0, Math.trunc(model.rowHeaderColumn ?? 0)), width - 1);
  const rows: DataTableCell[][] = [];
  let chars = cellChars(headerRow);
  for (const raw of model.rows.slice(0, L.tableRows)) {
    const row = Array.from({ length: width }, (_, i) => toCell(raw[i], maxChars));
    if (chars + cellChars(row) > L.tableChars) break;
    chars += cellChars(row);
    rows.push(row);
  }
  const omitted = model.rows.length - rows.length;
  const caption = nonEmpty(model.caption);
  const lines = [caption, ...rows.map((row) => rowLine(header, row, nameColumn))];
  if (omitted > 0) lines.push(mrkdwn`…and ${escapeMrkdwn(countText(omitted))} more not shown`);
  const text = joinMrkdwn(lines, mrkdwn`\n`);
  if (rows.length === 0) return { block: undefined, text, omitted };
  const pageSize = Math.min(Math.max(1, Math.trunc(model.pageSize ?? DEFAULT_PAGE_SIZE)), L.tablePageSize);
  const block: DataTableBlock = {
    type: 'data_table',
    ...(model.blockId ? { block_id: model.blockId } : {}),
    caption,
    rows: [headerRow, ...rows],
    page_size: pageSize,
    ...(nameColumn > 0 ? { row_header_column_index: nameColumn } : {}),
  };
  return { block, text, omitted };
}
