/**
 * A list of records that all have the same few fields (the Access tab's bot access matrix:
 * crawler, company, purpose, robots.txt, answer, last seen; a Live or Pages listing) as a
 * table model: one row per record, the name first, then classifications, states, figures
 * and times, the columns named in words and the cells in words, figures keeping their
 * number so Slack sorts them by value. views/table-model.ts draws it, as Slack's own
 * `data_table` block or as aligned text.
 */

import { dayText, timeText } from '../../../figures/day-text.js';
import { formatCount } from '../../../messages/format-number.js';
import { codeValueText, httpStatusText } from '../../../messages/vocabulary.js';
import { cleanText } from '../../views/clean-text.js';
import type { TableColumn, TableModel, TableValue } from '../../views/table-model.js';
import {
  COUNT_KEY,
  hiddenField,
  humanizeKey,
  isBlank,
  isBreakdown,
  isObj,
  isScalar,
  NAME_KEYS,
  type Obj,
  STATUS_KEY,
  TAG_KEY,
  TIME_KEY,
} from './payload-values.js';
import { nameKeyOf } from './record-row.js';

const MIN_ROWS = 3;
const MIN_COLUMNS = 3;
const MAX_COLUMNS = 7;
/** A listing's table scrolls sideways in Slack: room for every field a record usually has. */
const MAX_LISTING_COLUMNS = 10;
const HTTP_KEY = /http_status|status_code|typical_status/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A cell in words, as plain text (the table renderer escapes). */
function plainCell(key: string, value: unknown): string {
  if (isObj(value)) return breakdownCell(value);
  if (isBlank(value)) return '—';
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'number') {
    if (HTTP_KEY.test(key) && Number.isInteger(value)) return httpStatusText(value);
    if (/(^|_)ms$/.test(key)) return `${formatCount(value)} ms`;
    if (/(^|_)(pct|percent|percentage)$/.test(key)) return `${formatCount(value)} %`;
    return formatCount(value);
  }
  if (Array.isArray(value)) return value.map((v) => plainCell(key, v)).join(', ');
  const text = cleanText(String(value));
  // A table cell has no room for a time: the day, in the one date style.
  if (ISO_TIME.test(text) || /^\d{4}-\d{2}-\d{2}$/.test(text)) return dayText(text);
  return codeValueText(text, key);
}

/** A column's name in words, starting with a capital unless it starts with a file name (`robots.txt`). */
function columnLabel(key: string): string {
  const words = humanizeKey(key);
  return /^[a-z]+\.txt\b/.test(words) ? words : words.charAt(0).toUpperCase() + words.slice(1);
}

/** A breakdown ("GPTBot 12, ClaudeBot 3"): its largest entries, in words. */
function breakdownCell(value: Obj): string {
  const entries = Object.entries(value)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '—';
  const shown = entries.slice(0, 3).map(([k, n]) => `${codeValueText(k, 'name')} ${formatCount(n)}`);
  return entries.length > 3 ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** A figure keeps its number (a sortable column), a day its time; codes and the rest are words. */
function tableValue(key: string, value: unknown): TableValue {
  const text = plainCell(key, value);
  if (typeof value === 'string' && (ISO_TIME.test(value) || /^\d{4}-\d{2}-\d{2}$/.test(value))) {
    const time = Date.parse(value);
    // A moment keeps its time of day (a live visit); a day is a day.
    if (Number.isFinite(time)) return { number: time, text: ISO_TIME.test(value) ? timeText(time) : text };
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || HTTP_KEY.test(key)) return text;
  return { number: value, text };
}

function columnRank(key: string, sample: unknown, nameKey: string | undefined): number {
  if (key === nameKey) return 0;
  // Another name (the crawler of a visit) says who, right after what.
  if (NAME_KEYS.includes(key) && typeof sample === 'string' && key !== 'path') return 0.5;
  if (TAG_KEY.test(key)) return 1;
  if (typeof sample === 'boolean' || (STATUS_KEY.test(key) && !HTTP_KEY.test(key))) return 2;
  if (HTTP_KEY.test(key) || /robots|allowed|access/i.test(key)) return 2;
  if (typeof sample === 'number' && COUNT_KEY.test(key)) return 3;
  if (TIME_KEY.test(key)) return 4;
  return 5;
}

const flatValue = (v: unknown) => isScalar(v) || (Array.isArray(v) && v.every(isScalar));
const flat = (r: Obj) => Object.values(r).every(flatValue);

interface RecordTableOptions {
  /** Fewest rows that make a table; default 3 (fewer read better as lines). */
  minRows?: number;
  /**
   * A listing (Live, Pages): rows with a web address are named by their title or path, the
   * address left to the row's details, and breakdowns become a cell.
   */
  listing?: boolean;
}

/** The key naming each row of a listing: a page by its title or path, else the record's name. */
function listingNameKey(rows: readonly Obj[]): string | undefined {
  const has = (k: string) => rows.every((r) => typeof r[k] === 'string' && (r[k] as string).trim() !== '');
  if (rows.some((r) => typeof r['url'] === 'string')) return ['title', 'path', 'url'].find(has);
  return nameKeyOf(rows[0]!);
}

/** The records as a table, or undefined when they do not make one (too few, nested, linked). */
export function recordTable(
  items: readonly unknown[],
  options: RecordTableOptions = {},
): TableModel | undefined {
  const listing = options.listing === true;
  const fits = (r: unknown) =>
    isObj(r) &&
    (listing
      ? Object.entries(r).every(([k, v]) => flatValue(v) || (isObj(v) && isBreakdown(k, v)))
      : flat(r));
  if (items.length < (options.minRows ?? MIN_ROWS) || !items.every(fits)) return undefined;
  const rows = items as Obj[];
  // Outside a listing, rows with a web address read better as linked lines than as cells.
  if (!listing && rows.some((r) => typeof r['url'] === 'string')) return undefined;
  const nameKey = listing ? listingNameKey(rows) : nameKeyOf(rows[0]!);
  // A listing's page is named by its title or path, linked to its address.
  const linked = listing && rows.some((r) => typeof r['url'] === 'string');
  const said = new Set(linked && nameKey !== 'url' ? ['url'] : []);
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(
    (k) => !said.has(k) && !rows.every((r) => isBlank(r[k]) || hiddenField(k, r[k])),
  );
  const sample = (k: string) => rows.find((r) => !isBlank(r[k]))?.[k];
  const ordered = keys
    .map((k, i) => ({ k, i, rank: columnRank(k, sample(k), nameKey) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, listing ? MAX_LISTING_COLUMNS : MAX_COLUMNS)
    .map((c) => c.k);
  if (ordered.length < (listing ? 2 : MIN_COLUMNS)) return undefined;
  const columns: TableColumn[] = ordered.map((k) => ({
    label: k === nameKey && linked ? 'Page' : columnLabel(k),
    align: typeof sample(k) === 'number' && !HTTP_KEY.test(k) ? 'right' : 'left',
  }));
  // A listing names a page by its title or path, linked to the page.
  const cell = (r: Obj, k: string): TableValue =>
    k === nameKey && linked && typeof r['url'] === 'string'
      ? { url: r['url'], text: plainCell(k, r[k]) }
      : tableValue(k, r[k]);
  return { columns, rows: rows.map((r) => ordered.map((k) => cell(r, k))) };
}
