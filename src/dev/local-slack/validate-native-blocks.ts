/**
 * The two blocks Slack draws itself, checked as its reference states them:
 * - `data_table` (https://docs.slack.dev/reference/block-kit/blocks/data-table-block): a
 *   caption, 2–101 rows (a header and up to 100), 1–20 cells each and the same number in
 *   every row, cells `raw_text` / `raw_number` / `rich_text` (not in the header), text of at
 *   least 1 character, `page_size` 1–100, at most 10,000 characters across the cells;
 * - `data_visualization` (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block):
 *   a title ≤ 50, a pie of 1–6 segments with labels ≤ 20 and values above 0, or a line, bar
 *   or area chart of 1–6 uniquely named series (names ≤ 20) of 1–20 points whose labels
 *   (≤ 20) are among `axis_config.categories`.
 * The per-message rules (10,000 characters across all tables, at most 2 charts) are in
 * validate-blocks.ts, which sees the whole message.
 */
import { type Collector, isObject, type Json } from './block-problems.js';
import { SLACK_LIMITS as L } from './slack-limits.js';

const CELL_TYPES = new Set(['raw_text', 'raw_number', 'rich_text']);
const SERIES_CHARTS = new Set(['line', 'bar', 'area']);

/** Characters a cell shows: its text, or every text run of a rich_text cell. */
function cellChars(cell: unknown): number {
  if (Array.isArray(cell)) return cell.reduce<number>((n, c) => n + cellChars(c), 0);
  if (!isObject(cell)) return 0;
  let n = 0;
  for (const [key, value] of Object.entries(cell)) {
    if (key === 'text' && typeof value === 'string') n += value.length;
    else if (typeof value === 'object') n += cellChars(value);
  }
  return n;
}

function validateCell(c: Collector, cell: unknown, pointer: string, header: boolean): void {
  if (!isObject(cell)) {
    c.add('must provide an object', pointer);
    return;
  }
  const type = cell['type'];
  if (typeof type !== 'string' || !CELL_TYPES.has(type)) {
    c.add(`unsupported type: ${String(type)}`, `${pointer}/type`);
    return;
  }
  if (type === 'rich_text') {
    if (header) c.add('rich_text cannot be used in the header row', `${pointer}/type`);
    else c.array(cell['elements'], `${pointer}/elements`, 1, Number.POSITIVE_INFINITY);
    return;
  }
  c.string(cell['text'], `${pointer}/text`);
  if (type === 'raw_number') c.number(cell['value'], `${pointer}/value`);
}

/** Validates a data_table block; returns the characters its cells hold (for the message's total). */
export function validateDataTable(c: Collector, block: Json, pointer: string): number {
  c.string(block['caption'], `${pointer}/caption`);
  c.optionalInteger(block['page_size'], `${pointer}/page_size`, 1, L.tablePageSize);
  const rows = c.array(block['rows'], `${pointer}/rows`, 2, L.tableRows);
  if (!rows) return 0;
  let width: number | undefined;
  for (const [r, row] of rows.entries()) {
    const cells = c.array(row, `${pointer}/rows/${r}`, 1, L.tableColumns);
    if (!cells) continue;
    width ??= cells.length;
    if (cells.length !== width) {
      c.add(`all rows must have the same number of cells (${width})`, `${pointer}/rows/${r}`);
    }
    for (const [i, cell] of cells.entries()) validateCell(c, cell, `${pointer}/rows/${r}/${i}`, r === 0);
  }
  const headerIndex = block['row_header_column_index'];
  c.optionalInteger(headerIndex, `${pointer}/row_header_column_index`, 0, Math.max(0, (width ?? 1) - 1));
  const chars = cellChars(rows);
  if (chars > L.tableChars) {
    c.add(`cells must hold no more than ${L.tableChars} characters in all`, `${pointer}/rows`);
  }
  return chars;
}

function validateLabelled(
  c: Collector,
  point: unknown,
  pointer: string,
  check?: (value: number, at: string) => void,
): string | undefined {
  if (!isObject(point)) {
    c.add('must provide an object', pointer);
    return undefined;
  }
  const label = point['label'];
  const ok = c.string(label, `${pointer}/label`, L.chartName);
  if (c.number(point['value'], `${pointer}/value`)) check?.(point['value'] as number, `${pointer}/value`);
  return ok ? (label as string) : undefined;
}

function validateSeries(c: Collector, chart: Json, pointer: string): void {
  const axis = chart['axis_config'];
  let categories = new Set<string>();
  if (!isObject(axis)) c.add('must provide an object', `${pointer}/axis_config`);
  else {
    const list = c.array(
      axis['categories'],
      `${pointer}/axis_config/categories`,
      1,
      Number.POSITIVE_INFINITY,
    );
    for (const [i, cat] of (list ?? []).entries()) {
      c.string(cat, `${pointer}/axis_config/categories/${i}`, L.chartName);
    }
    categories = new Set((list ?? []).filter((x): x is string => typeof x === 'string'));
    for (const key of ['x_label', 'y_label']) {
      if (axis[key] !== undefined) c.string(axis[key], `${pointer}/axis_config/${key}`, L.chartAxisLabel);
    }
  }
  const series = c.array(chart['series'], `${pointer}/series`, 1, L.chartSeries) ?? [];
  const names = new Set<string>();
  for (const [s, one] of series.entries()) {
    const at = `${pointer}/series/${s}`;
    if (!isObject(one)) {
      c.add('must provide an object', at);
      continue;
    }
    const name = one['name'];
    if (c.string(name, `${at}/name`, L.chartName)) {
      if (names.has(name)) c.add(`duplicate series name: ${name}`, `${at}/name`);
      names.add(name);
    }
    const data = c.array(one['data'], `${at}/data`, 1, L.chartPoints) ?? [];
    for (const [i, point] of data.entries()) {
      const label = validateLabelled(c, point, `${at}/data/${i}`);
      if (label !== undefined && isObject(axis) && !categories.has(label)) {
        c.add('must be one of axis_config.categories', `${at}/data/${i}/label`);
      }
    }
  }
}

export function validateDataVisualization(c: Collector, block: Json, pointer: string): void {
  c.string(block['title'], `${pointer}/title`, L.chartTitle);
  const chart = block['chart'];
  if (!isObject(chart)) {
    c.add('must provide an object', `${pointer}/chart`);
    return;
  }
  const type = chart['type'];
  if (type === 'pie') {
    const segments = c.array(chart['segments'], `${pointer}/chart/segments`, 1, L.pieSegments) ?? [];
    for (const [i, segment] of segments.entries()) {
      validateLabelled(c, segment, `${pointer}/chart/segments/${i}`, (value, at) => {
        if (value <= 0) c.add('must be greater than 0', at);
      });
    }
  } else if (typeof type === 'string' && SERIES_CHARTS.has(type)) {
    validateSeries(c, chart, `${pointer}/chart`);
  } else {
    c.add(`unsupported type: ${String(type)}`, `${pointer}/chart/type`);
  }
}
