/**
 * Renders a payload whose shape is not documented (docs/api.md §10: the crawler Live, Pages,
 * Access, drawer and action responses) as readable mrkdwn lines, whatever it holds, in a
 * marketer's words. Each field is drawn by its shape (payload-shapes.ts): a verdict as a
 * sentence, a pipeline as a progression, a daily series as a small chart with its figures,
 * problems as "what is wrong → what to do", name–count lists on one line, lists of flat
 * records as a table, other records as rows (record-row.ts), an object's simple fields as
 * one line of phrases, multi-line text as a code block. Empty fields are left out. Depth,
 * items and lines are bounded, so a deep or huge payload still yields a message Slack
 * accepts.
 */

import { counted } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import type { NativeTable } from '../../../messages/data-table.js';
import { formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { nativeTable, textTable } from '../../views/table-model.js';
import { jsonLength, takeLinesWithin } from '../../views/take-lines-within.js';
import {
  byUrgency,
  isIssueList,
  issueLines,
  namedCountsText,
  pipelineText,
  seriesText,
  verdictText,
} from './payload-shapes.js';
import {
  countsText,
  factText,
  hiddenField,
  humanizeKey,
  isBlank,
  isBreakdown,
  isObj,
  isScalar,
  NAME_KEYS,
  namedValue,
  type Obj,
  scalarList,
  valueText,
} from './payload-values.js';
import { itemLine, recordRow, rowText } from './record-row.js';
import { recordTable } from './record-table.js';

interface GenericPayloadOptions {
  /** Nesting rendered as fields; deeper objects are summarised. Default 3. */
  maxDepth?: number;
  /** Items shown per list. Default 8. */
  maxItems?: number;
  /** Lines in all. Default 60. */
  maxLines?: number;
  /** Characters per line (a code block counts as one line). Default 1000. */
  maxLineLength?: number;
  /** Top-level keys the caller renders itself (e.g. `items`, `meta`). */
  skipKeys?: readonly string[];
  /** Lists of flat records as Slack's own table block (genericPayloadBlocks), not aligned text. */
  nativeTables?: boolean;
}

/** Rows a table shows at once; Slack pages through the rest. */
const TABLE_PAGE_SIZE = 10;

/** Section names better said otherwise than their key. */
const SECTION_TITLES: Readonly<Record<string, string>> = {
  findings: 'What needs attention',
  diagnostics: 'Problems found',
  issues: 'Problems found',
  robots: 'robots.txt',
  robots_txt: 'robots.txt',
  llms: 'llms.txt',
  llms_txt: 'llms.txt',
  bot_access: 'Bot access',
  series: 'By day',
};

const title = (key: string): Mrkdwn =>
  mrkdwn`*${escapeMrkdwn(ownLookup(SECTION_TITLES, key) ?? humanizeKey(key))}*`;

interface RenderState {
  lines: Mrkdwn[];
  maxLines: number;
  maxDepth: number;
  maxItems: number;
  maxLineLength: number;
  truncated: boolean;
  nativeTables: boolean;
  /** Lines that are a table: drawn as Slack's table block where blocks are built. */
  tables: Map<number, NativeTable>;
}

function push(s: RenderState, line: Mrkdwn): boolean {
  if (s.lines.length >= s.maxLines) {
    s.truncated = true;
    return false;
  }
  s.lines.push(truncateMrkdwn(line, s.maxLineLength));
  return true;
}

const indentOf = (depth: number) => (depth <= 0 ? mrkdwn`` : escapeMrkdwn(`${'    '.repeat(depth - 1)}◦ `));
const itemPad = (depth: number) => escapeMrkdwn('    '.repeat(Math.max(0, depth)));
const multiLine = (v: unknown): v is string => typeof v === 'string' && v.trim().includes('\n');
/** Lines of text (a diff, a list of messages) read better as a block than comma-joined. */
const textLines = (strings: readonly string[]) =>
  strings.some((t) => /^[+-] /.test(t)) || (strings.length > 1 && strings.some((t) => t.length > 60));
/** Said in a phrase on the object's line: scalars, short lists and breakdowns. */
const isSimple = (key: string, v: unknown): boolean =>
  (isScalar(v) && !multiLine(v)) ||
  (Array.isArray(v) && v.every(isScalar) && !textLines(v.map(String))) ||
  (isObj(v) && isBreakdown(key, v) && countsText(v) !== undefined);

/** Lines of text in a code block, at most `maxLines` of them, the rest counted. */
function codeBlock(lines: readonly string[], maxLines = 20): Mrkdwn {
  const shown = lines.slice(0, maxLines).map((l) => escapeMrkdwn(truncatePlain(l.replace(/`/g, "'"), 120)));
  const joined = joinMrkdwn(shown, mrkdwn`\n`);
  // Never an empty fence: Slack would print the backticks.
  const body = joined.trim() === '' ? mrkdwn` ` : joined;
  const more =
    lines.length > maxLines
      ? mrkdwn`\n…and ${escapeMrkdwn(counted(lines.length - maxLines, 'more line'))}`
      : mrkdwn``;
  return truncateMrkdwn(mrkdwn`\`\`\`${body}\`\`\`${more}`, 3000);
}

function pushCode(s: RenderState, name: Mrkdwn, pad: Mrkdwn, lines: readonly string[]): void {
  if (push(s, mrkdwn`${pad}${name}:`) && s.lines.length < s.maxLines) s.lines.push(codeBlock(lines));
}

function renderField(s: RenderState, key: string, value: unknown, depth: number): void {
  if (isBlank(value) || hiddenField(key, value)) return;
  if (s.lines.length >= s.maxLines) {
    s.truncated = true;
    return;
  }
  const pad = indentOf(depth);
  if (multiLine(value)) pushCode(s, title(key), pad, value.replace(/\n+$/, '').split('\n'));
  else if (isScalar(value)) {
    const [name, text] = namedValue(key, value, s.maxLineLength);
    push(s, mrkdwn`${pad}*${name}*: ${text}`);
  } else if (Array.isArray(value)) renderArray(s, key, value, depth);
  else renderObject(s, key, value as Obj, depth);
}

/** An object's simple fields on one line: as a row when it names something, else as phrases. */
function fieldsLine(obj: Obj, simple: readonly [string, unknown][], max: number): Mrkdwn {
  if (NAME_KEYS.some((k) => typeof obj[k] === 'string' && obj[k] !== ''))
    return rowText(recordRow(Object.fromEntries(simple)), max);
  return joinMrkdwn(
    simple.map(([k, v]) => factText(k, v, 200)).filter((t): t is Mrkdwn => t !== undefined),
    mrkdwn` · `,
  );
}

/** An object: a verdict sentence, counts on one line, a named record as a row, or its fields. */
function renderObject(s: RenderState, key: string, obj: Obj, depth: number): void {
  const pad = indentOf(depth);
  const verdict = verdictText(obj);
  if (verdict) {
    push(s, mrkdwn`${pad}${verdict}`);
    return;
  }
  const counts = isBreakdown(key, obj) ? countsText(obj, 8) : undefined;
  if (counts) {
    push(s, mrkdwn`${pad}${title(key)}: ${counts}`);
    return;
  }
  const entries = Object.entries(obj).filter(([k, v]) => !isBlank(v) && !hiddenField(k, v));
  if (entries.length === 0) return;
  const simple = entries.filter(([k, v]) => isSimple(k, v));
  const rest = entries.filter((e) => !simple.includes(e));
  if (depth >= s.maxDepth && rest.length > 0) {
    push(s, mrkdwn`${pad}${title(key)}: ${escapeMrkdwn(counted(entries.length, 'field'))}`);
    return;
  }
  const head = fieldsLine(obj, simple, s.maxLineLength - 60);
  if (!push(s, head === '' ? mrkdwn`${pad}${title(key)}` : mrkdwn`${pad}${title(key)}: ${head}`)) return;
  for (const [k, v] of rest) renderField(s, k, v, depth + 1);
}

/** Scalars: one line, or a code block when they are lines of text (a diff, messages). */
function renderScalars(s: RenderState, key: string, items: readonly unknown[], depth: number): void {
  const strings = items.map((v) => String(v));
  if (textLines(strings)) pushCode(s, title(key), indentOf(depth), strings);
  else push(s, mrkdwn`${indentOf(depth)}${title(key)}: ${scalarList(items, key, 10)}`);
}

/** Records: problems as what is wrong → what to do, flat records as a table, others as rows. */
function renderRecords(s: RenderState, key: string, items: readonly unknown[], depth: number): void {
  const table = items.length <= 40 && !isIssueList(items) ? recordTable(items) : undefined;
  if (table) {
    if (s.lines.length >= s.maxLines) return;
    if (s.nativeTables) {
      const native = nativeTable(table, {
        caption: ownLookup(SECTION_TITLES, key) ?? humanizeKey(key),
        pageSize: TABLE_PAGE_SIZE,
      });
      if (native.block && native.omitted === 0) s.tables.set(s.lines.length, native);
    }
    s.lines.push(textTable(table));
    return;
  }
  const ordered = isIssueList(items) ? byUrgency(items) : items;
  for (const item of ordered.slice(0, s.maxItems)) {
    const lines = isObj(item)
      ? isIssueList([item])
        ? issueLines(item)
        : [itemLine(item, Math.min(s.maxLineLength, 400))]
      : [
          mrkdwn`• ${Array.isArray(item) ? escapeMrkdwn(counted(item.length, 'value')) : valueText(item, key, 200)}`,
        ];
    for (const line of lines) push(s, mrkdwn`${itemPad(depth)}${line}`);
  }
  if (items.length > s.maxItems)
    push(s, mrkdwn`${itemPad(depth)}…and ${formatCount(items.length - s.maxItems)} more`);
}

function renderArray(s: RenderState, key: string, value: readonly unknown[], depth: number): void {
  const pad = indentOf(depth);
  const items = value.filter((v) => !isBlank(v));
  const oneLine =
    items.length === 0 ? mrkdwn`none` : (pipelineText(items) ?? seriesText(items) ?? namedCountsText(items));
  if (oneLine) push(s, mrkdwn`${pad}${title(key)}: ${oneLine}`);
  else if (items.every(isScalar)) renderScalars(s, key, items, depth);
  else if (push(s, mrkdwn`${pad}${title(key)} (${formatCount(items.length)})`))
    renderRecords(s, key, items, depth);
}

/** The payload as mrkdwn lines (at most `maxLines`). */
export function genericPayloadLines(payload: unknown, options: GenericPayloadOptions = {}): Mrkdwn[] {
  return renderPayload(payload, options).lines;
}

function renderPayload(payload: unknown, options: GenericPayloadOptions): RenderState {
  const s: RenderState = {
    lines: [],
    maxLines: Math.max(1, options.maxLines ?? 60),
    maxDepth: options.maxDepth ?? 3,
    maxItems: options.maxItems ?? 8,
    maxLineLength: options.maxLineLength ?? 1000,
    truncated: false,
    nativeTables: options.nativeTables === true,
    tables: new Map(),
  };
  const skip = new Set(options.skipKeys ?? []);
  if (isObj(payload)) {
    const keys = Object.keys(payload).filter((k) => !skip.has(k));
    let done = 0;
    for (const key of keys) {
      if (s.truncated) break;
      renderField(s, key, payload[key], 0);
      done += 1;
    }
    const left = keys.length - done;
    if (s.truncated)
      s.lines.push(
        left > 0 ? mrkdwn`…and ${escapeMrkdwn(counted(left, 'more field'))}` : mrkdwn`…and more not shown`,
      );
  } else if (Array.isArray(payload)) renderArray(s, 'items', payload, 0);
  else if (!isBlank(payload)) push(s, valueText(payload, 'value', s.maxLineLength));
  return s;
}

/** Lines as sections, a table line as its table block; as many as fit `budget`, the rest counted. */
function blocksWithTables(s: RenderState, budget: number): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let pending: Mrkdwn[] = [];
  let used = 0;
  let kept = 0;
  for (const [i, line] of s.lines.entries()) {
    const table = s.tables.get(i)?.block;
    const size = table ? jsonLength(table) + 1 : jsonLength(line) + 2;
    if (used + size > budget) break;
    used += size;
    kept += 1;
    if (!table) {
      pending.push(line);
      continue;
    }
    blocks.push(...chunkSections(pending), table as KnownBlock);
    pending = [];
  }
  const dropped = s.lines.length - kept;
  if (dropped > 0) pending.push(mrkdwn`…and ${escapeMrkdwn(counted(dropped, 'more line'))} not shown`);
  return [...blocks, ...chunkSections(pending)];
}

/** The payload as section blocks within `budget` serialised characters, cut visibly. */
export function genericPayloadBlocks(
  payload: unknown,
  budget: number,
  options: GenericPayloadOptions = {},
): KnownBlock[] {
  const state = renderPayload(payload, options);
  if (state.tables.size > 0) return blocksWithTables(state, budget - 60);
  const lines = state.lines;
  const { kept, dropped } = takeLinesWithin(lines, budget - 60);
  return chunkSections(
    dropped > 0 ? [...kept, mrkdwn`…and ${escapeMrkdwn(counted(dropped, 'more line'))} not shown`] : kept,
  );
}
