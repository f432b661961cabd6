/**
 * A `data_table` block as the terminal can show it: the caption, then aligned columns, the
 * header in bold, numbers (`raw_number` columns) on the right as Slack sorts them, long
 * cells cut. Slack shows one page at a time (`page_size`, default 5); so does the console,
 * saying how many rows the other pages hold.
 */
import { visibleWidth } from '../../../terminal/style.js';
import { decodeEntities, type Json, list, rec, str } from './block-json.js';
import type { RenderContext } from './render-context.js';
import { renderRichText } from './render-rich-text.js';

const MAX_COLUMN = 32;
const GAP = '  ';
const DEFAULT_PAGE_SIZE = 5;

interface Cell {
  text: string;
  numeric: boolean;
}

function readCell(raw: unknown, ctx: RenderContext): Cell {
  const cell = rec(raw);
  if (cell?.['type'] === 'rich_text') {
    return { text: renderRichText(cell, ctx.style, ctx.tokens).join(' '), numeric: false };
  }
  return { text: decodeEntities(str(cell?.['text']) ?? ''), numeric: cell?.['type'] === 'raw_number' };
}

function cut(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  return `${[...text].slice(0, width - 1).join('')}…`;
}

export function renderDataTable(block: Json, ctx: RenderContext): string[] {
  const { style } = ctx;
  const [header = [], ...rows] = list(block['rows']).map((row) => list(row).map((c) => readCell(c, ctx)));
  const pageSize = typeof block['page_size'] === 'number' ? block['page_size'] : DEFAULT_PAGE_SIZE;
  const page = rows.slice(0, Math.max(1, pageSize));
  const columns = header.length;
  // A column of numbers only is sorted (and read) as numbers: right-aligned.
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => r[i]?.numeric === true));
  const widths = header.map((h, i) =>
    Math.min(MAX_COLUMN, Math.max(visibleWidth(h.text), ...page.map((r) => visibleWidth(r[i]?.text ?? '')))),
  );
  const line = (cells: readonly Cell[], bold: boolean) =>
    Array.from({ length: columns }, (_, i) => {
      const text = cut(cells[i]?.text ?? '', widths[i]!);
      const fill = ' '.repeat(Math.max(0, widths[i]! - visibleWidth(text)));
      const shown = bold ? style.bold(text) : text;
      if (numeric[i]) return fill + shown;
      // The last column needs no padding after it.
      return i === columns - 1 ? shown : shown + fill;
    }).join(GAP);
  const lines = [style.dim(`▦ ${decodeEntities(str(block['caption']) ?? '')}`), line(header, true)];
  for (const row of page) lines.push(line(row, false));
  const rest = rows.length - page.length;
  if (rest > 0) {
    const pages = Math.ceil(rows.length / page.length);
    lines.push(style.dim(`  page 1 of ${pages}: ${rest} more row${rest === 1 ? '' : 's'} on the next pages`));
  }
  return lines;
}
