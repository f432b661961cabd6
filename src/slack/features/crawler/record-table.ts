/**
 * A list of flat records that all have the same few fields (the Access tab's bot access
 * matrix: crawler, company, purpose, robots.txt, answer, last seen) as a table model: one
 * row per record, the name first, then classifications, states, figures and times, the
 * columns named in words and the cells in words. views/table-model.ts draws it; Slack's
 * own table block can draw the same model later.
 */

import { dayText } from '../../../figures/day-text.js';
import { formatCount } from '../../../messages/format-number.js';
import { codeValueText, httpStatusText } from '../../../messages/vocabulary.js';
import { cleanText } from '../../views/clean-text.js';
import type { TableColumn, TableModel } from '../../views/table-model.js';
import {
  COUNT_KEY,
  hiddenField,
  humanizeKey,
  isBlank,
  isObj,
  isScalar,
  type Obj,
  STATUS_KEY,
  TAG_KEY,
  TIME_KEY,
} from './payload-values.js';
import { nameKeyOf } from './record-row.js';

const MIN_ROWS = 3;
const MIN_COLUMNS = 3;
const MAX_COLUMNS = 7;
const HTTP_KEY = /http_status|status_code|typical_status/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A cell in words, as plain text (the table renderer escapes). */
export function plainCell(key: string, value: unknown): string {
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

function columnRank(key: string, sample: unknown, nameKey: string | undefined): number {
  if (key === nameKey) return 0;
  if (TAG_KEY.test(key)) return 1;
  if (typeof sample === 'boolean' || (STATUS_KEY.test(key) && !HTTP_KEY.test(key))) return 2;
  if (HTTP_KEY.test(key) || /robots|allowed|access/i.test(key)) return 2;
  if (typeof sample === 'number' && COUNT_KEY.test(key)) return 3;
  if (TIME_KEY.test(key)) return 4;
  return 5;
}

const flat = (r: Obj) =>
  Object.values(r).every((v) => isScalar(v) || (Array.isArray(v) && v.every(isScalar)));

/** The records as a table, or undefined when they do not make one (too few, nested, linked). */
export function recordTable(items: readonly unknown[]): TableModel | undefined {
  if (items.length < MIN_ROWS || !items.every((r) => isObj(r) && flat(r))) return undefined;
  const rows = items as Obj[];
  // Rows with a web address read better as linked lines than as table cells.
  if (rows.some((r) => typeof r['url'] === 'string')) return undefined;
  const nameKey = nameKeyOf(rows[0]!);
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(
    (k) => !rows.every((r) => isBlank(r[k]) || hiddenField(k, r[k])),
  );
  const sample = (k: string) => rows.find((r) => !isBlank(r[k]))?.[k];
  const ordered = keys
    .map((k, i) => ({ k, i, rank: columnRank(k, sample(k), nameKey) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, MAX_COLUMNS)
    .map((c) => c.k);
  if (ordered.length < MIN_COLUMNS) return undefined;
  const columns: TableColumn[] = ordered.map((k) => ({
    label: humanizeKey(k),
    align: typeof sample(k) === 'number' && !HTTP_KEY.test(k) ? 'right' : 'left',
  }));
  return { columns, rows: rows.map((r) => ordered.map((k) => plainCell(k, r[k]))) };
}
