/**
 * Renders a payload whose shape is not documented (DESIGN.md: the crawler Live, Pages,
 * Access, drawer and action responses) as readable mrkdwn lines, whatever it holds, in a
 * marketer's words: field names from the vocabulary (messages/vocabulary.ts) or humanised,
 * units and percentages, HTTP statuses explained, times relative, internal ids left out;
 * scalars become `*Label*: value`, nested objects indented fields, arrays of objects one
 * compact line per item (its name/title/url first, then its count-like, status-like and
 * time-like fields), multi-line text a code block. Depth, items, lines and line length are
 * all bounded, so a deep or huge payload still yields a message Slack accepts.
 */
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { codeValueText, fieldName, httpStatusText } from '../../../messages/vocabulary.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import { takeLinesWithin } from '../../views/take-lines-within.js';

export interface GenericPayloadOptions {
  /** Nesting rendered as fields; deeper objects are summarised. Default 3. */
  maxDepth?: number;
  /** Items shown per array. Default 8. */
  maxItems?: number;
  /** Lines in all. Default 60. */
  maxLines?: number;
  /** Characters per line (a code block counts as one line). Default 400. */
  maxLineLength?: number;
  /** Top-level keys the caller renders itself (e.g. `items`, `meta`). */
  skipKeys?: readonly string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Fields that name an item, best first. */
const PRIMARY_KEYS = ['title', 'name', 'label', 'crawler', 'query', 'url', 'path', 'domain', 'stage', 'code'];
const COUNT_LIKE =
  /count|visits|requests|total|pages|hits|sessions|percent|pct|rate|score|mentions|urls|errors|ms$/i;
const STATUS_LIKE = /status|severity|verdict|intent|platform|reached|allowed|present|type|category|robots/i;
const TIME_LIKE = /_at$|date|seen|time/i;
/** Numbers that are codes, not quantities: no thousands separator. */
const CODE_LIKE = /code|status|id$|year|port/i;
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Internal ids (`vis_20780_1_152`, `fnd_e2f496a904b5`) mean nothing to a reader: they are
 * kept out of the text (buttons carry them where an action needs one).
 */
const INTERNAL_ID = /^[a-z]{2,5}_(?=[a-z0-9_]*\d)[a-z0-9_]{4,}$/i;
const ID_KEY = /(^|_)id$|Id$|^cursor$|^uuid$/;
export const isInternalId = (value: unknown): boolean =>
  typeof value === 'string' && INTERNAL_ID.test(value.trim());
const hiddenField = (key: string, value: unknown) => ID_KEY.test(key) || isInternalId(value);

/** Keys whose numbers are HTTP status codes, explained (`404` → "404 Not found"). */
const HTTP_STATUS_KEY = /http_status|status_code|^status$|typical_status/i;
const MS_KEY = /(^|_)ms$|_millis$|Ms$/;
const PCT_KEY = /(^|_)(pct|percent|percentage)$|Pct$/;

/** `total_visits` → `Total visits`, `response_ms` → `Response time` (the vocabulary first). */
export function humanizeKey(key: string): string {
  const words = fieldName(key);
  // `robots.txt` and `llms.txt` are names, not sentences: they keep their case.
  const text = words.includes('.') ? words : words === '' ? key : words[0]!.toUpperCase() + words.slice(1);
  return truncatePlain(text, 60);
}

const label = (key: string) => escapeMrkdwn(humanizeKey(key));
const lowerLabel = (key: string) => escapeMrkdwn(truncatePlain(fieldName(key), 60));

/** ISO times as Slack's relative date token ("3 minutes ago", the date on hover). */
function timeText(iso: string, match: RegExpExecArray): Mrkdwn {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms))
    return escapeMrkdwn(`${match[1]} ${match[2]}${match[5] === 'Z' || match[5] === undefined ? ' UTC' : ''}`);
  return slackDate(ms, '{ago}');
}

function formatScalar(value: unknown, key: string, maxLength: number): Mrkdwn {
  if (value === null || value === undefined) return mrkdwn`—`;
  if (typeof value === 'boolean') return value ? mrkdwn`yes` : mrkdwn`no`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return mrkdwn`—`;
    if (HTTP_STATUS_KEY.test(key) && Number.isInteger(value) && value >= 100 && value < 600)
      return escapeMrkdwn(httpStatusText(value));
    if (MS_KEY.test(key)) return mrkdwn`${formatCount(value)} ms`;
    if (PCT_KEY.test(key)) return mrkdwn`${formatCount(value)} %`;
    return CODE_LIKE.test(key) ? escapeMrkdwn(String(value)) : formatCount(value);
  }
  const text = String(value);
  const time = ISO_TIME.exec(text);
  if (time) return timeText(text, time);
  if (/^https?:\/\//i.test(text)) return linkOrText(text, undefined, Math.min(maxLength, 120));
  if (isInternalId(text)) return mrkdwn`—`;
  return inlineText(codeValueText(text, key), maxLength);
}

function codeBlock(lines: readonly string[], maxLineLength: number, maxLines = 12): Mrkdwn {
  const shown = lines.slice(0, maxLines).map((l) => escapeMrkdwn(truncatePlain(l.replace(/`/g, "'"), 120)));
  const more = lines.length > maxLines ? mrkdwn`\n…${lines.length - maxLines} more lines` : mrkdwn``;
  // Never an empty fence: Slack would print the backticks.
  const joined = joinMrkdwn(shown, mrkdwn`\n`);
  const body = joined.trim() === '' ? mrkdwn` ` : joined;
  return truncateMrkdwn(mrkdwn`\`\`\`${body}\`\`\`${more}`, Math.max(maxLineLength, 1500));
}

/** `{200: 10, 404: 1}` → `200: 10, 404: 1` (count tables the crawler payloads are full of). */
function numberRecord(value: Obj, maxEntries = 4): Mrkdwn | undefined {
  const entries = Object.entries(value);
  if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'number')) return undefined;
  const shown = entries
    .sort((a, b) => (b[1] as number) - (a[1] as number))
    .slice(0, maxEntries)
    .map(
      ([k, v]) =>
        mrkdwn`${inlineText(/^[1-5]\d\d$/.test(k) ? httpStatusText(Number(k)) : codeValueText(k), 40)}: ${formatCount(v as number)}`,
    );
  return mrkdwn`${joinMrkdwn(shown, mrkdwn`, `)}${entries.length > maxEntries ? mrkdwn`, +${entries.length - maxEntries}` : mrkdwn``}`;
}

function scalarList(values: readonly unknown[], key: string, max = 10): Mrkdwn {
  const shown = values.slice(0, max).map((v) => formatScalar(v, key, 80));
  return mrkdwn`${joinMrkdwn(shown, mrkdwn`, `)}${values.length > max ? mrkdwn`, +${values.length - max} more` : mrkdwn``}`;
}

function fieldRank(key: string, value: unknown): number {
  if (typeof value === 'number' && COUNT_LIKE.test(key)) return 0;
  // When a visit happened matters more than how it is classified.
  if (TIME_LIKE.test(key)) return 1;
  if (STATUS_LIKE.test(key)) return 2;
  return 3;
}

export function primaryKeyOf(item: Obj): string | undefined {
  return PRIMARY_KEYS.find((k) => typeof item[k] === 'string' && (item[k] as string).trim() !== '');
}

/** Fields that make a good link label for an item's `url`, best first. */
const LINK_LABEL_KEYS = ['title', 'label', 'path'];

/**
 * One compact line for an object in a list: its name first (linked to its `url`, labelled
 * with its title or path), then up to six count-like, time-like and status-like fields in
 * words. Its internal id stays out (buttons carry ids where an action needs one).
 */
export function itemLine(item: Obj, maxLength = 400): Mrkdwn {
  const primary = primaryKeyOf(item);
  const url = typeof item['url'] === 'string' && item['url'] !== '' ? (item['url'] as string) : undefined;
  const labelKey = LINK_LABEL_KEYS.find(
    (k) => typeof item[k] === 'string' && (item[k] as string).trim() !== '',
  );
  const link =
    url !== undefined ? linkOrText(url, labelKey ? (item[labelKey] as string) : undefined, 90) : undefined;
  const named = primary !== undefined && primary !== 'url' && primary !== labelKey;
  // A code as the name (`blocked_by_firewall`) reads as words; names and prose stay as they are.
  const name = primary
    ? mrkdwn`*${inlineText(codeValueText(item[primary] as string, primary), 90)}*`
    : undefined;
  const head = [named ? name : undefined, link ?? name].filter(
    (p, i, all): p is Mrkdwn => p !== undefined && all.indexOf(p) === i,
  );
  const used = new Set([primary, ...(url !== undefined ? ['url', labelKey] : [])]);

  const fields: { rank: number; text: Mrkdwn }[] = [];
  for (const [key, value] of Object.entries(item)) {
    if (used.has(key) || hiddenField(key, value)) continue;
    let text: Mrkdwn | undefined;
    if (isScalar(value)) text = formatScalar(value, key, 80);
    else if (Array.isArray(value) && value.every(isScalar))
      text = value.length ? scalarList(value, key, 3) : undefined;
    else if (isObj(value)) text = numberRecord(value);
    if (text === undefined || text === '') continue;
    fields.push({ rank: fieldRank(key, value), text: mrkdwn`${lowerLabel(key)} ${text}` });
    if (fields.length > 40) break;
  }
  const shown = fields
    .sort((a, b) => a.rank - b.rank)
    .slice(0, 6)
    .map((f) => f.text);
  const body = joinMrkdwn(
    [joinMrkdwn(head, mrkdwn` `), joinMrkdwn(shown, mrkdwn` · `)].filter((part) => part !== ''),
    mrkdwn` — `,
  );
  return truncateMrkdwn(mrkdwn`• ${body || mrkdwn`(no details)`}`, maxLength);
}

interface RenderState {
  lines: Mrkdwn[];
  maxLines: number;
  maxDepth: number;
  maxItems: number;
  maxLineLength: number;
  truncated: boolean;
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

function renderField(s: RenderState, key: string, value: unknown, depth: number): void {
  if (s.lines.length >= s.maxLines) {
    s.truncated = true;
    return;
  }
  if (hiddenField(key, value)) return;
  const pad = indentOf(depth);
  const name = mrkdwn`*${label(key)}*`;
  if (typeof value === 'string' && value.includes('\n')) {
    push(s, mrkdwn`${pad}${name}:`);
    if (s.lines.length < s.maxLines)
      s.lines.push(codeBlock(value.replace(/\n+$/, '').split('\n'), s.maxLineLength));
    return;
  }
  if (isScalar(value) || value === undefined) {
    push(s, mrkdwn`${pad}${name}: ${formatScalar(value, key, s.maxLineLength)}`);
    return;
  }
  if (Array.isArray(value)) {
    renderArray(s, key, value, depth);
    return;
  }
  const obj = value as Obj;
  const entries = Object.entries(obj);
  if (entries.length === 0) {
    push(s, mrkdwn`${pad}${name}: —`);
    return;
  }
  // A small flat object reads best on one line (multi-line text needs its own block).
  if (
    entries.length <= 6 &&
    entries.every(([, v]) => isScalar(v) && !(typeof v === 'string' && v.includes('\n')))
  ) {
    const parts = entries
      .filter(([k, v]) => !hiddenField(k, v))
      .map(([k, v]) => mrkdwn`${lowerLabel(k)} ${formatScalar(v, k, 80)}`);
    push(s, mrkdwn`${pad}${name}: ${joinMrkdwn(parts, mrkdwn` · `)}`);
    return;
  }
  const record = numberRecord(obj, 8);
  if (record !== undefined) {
    push(s, mrkdwn`${pad}${name}: ${record}`);
    return;
  }
  if (depth >= s.maxDepth) {
    push(s, mrkdwn`${pad}${name}: ${entries.length} field${entries.length === 1 ? mrkdwn`` : mrkdwn`s`}`);
    return;
  }
  if (!push(s, mrkdwn`${pad}${name}`)) return;
  renderObject(s, obj, depth + 1);
}

function renderArray(s: RenderState, key: string, value: readonly unknown[], depth: number): void {
  const pad = indentOf(depth);
  const name = mrkdwn`*${label(key)}*`;
  if (value.length === 0) {
    push(s, mrkdwn`${pad}${name}: none`);
    return;
  }
  if (value.every(isScalar)) {
    const strings = value.map((v) => String(v));
    // Lines of text (a diff, a list of messages) read better as a block than comma-joined.
    const asLines = strings.some((t) => t.length > 60 || /^[+-] /.test(t)) && strings.length > 1;
    if (asLines) {
      push(s, mrkdwn`${pad}${name}:`);
      if (s.lines.length < s.maxLines) s.lines.push(codeBlock(strings, s.maxLineLength));
      return;
    }
    push(s, mrkdwn`${pad}${name}: ${scalarList(value, key)}`);
    return;
  }
  if (!push(s, mrkdwn`${pad}${name} (${formatCount(value.length)})`)) return;
  const shown = value.slice(0, s.maxItems);
  for (const item of shown) {
    if (s.lines.length >= s.maxLines) {
      s.truncated = true;
      return;
    }
    const itemPad = escapeMrkdwn('    '.repeat(Math.max(0, depth)));
    if (isObj(item)) push(s, mrkdwn`${itemPad}${itemLine(item, s.maxLineLength)}`);
    else if (Array.isArray(item)) push(s, mrkdwn`${itemPad}• ${item.length} values`);
    else push(s, mrkdwn`${itemPad}• ${formatScalar(item, key, s.maxLineLength)}`);
  }
  if (value.length > shown.length)
    push(
      s,
      mrkdwn`${escapeMrkdwn('    '.repeat(Math.max(0, depth)))}…and ${formatCount(value.length - shown.length)} more`,
    );
}

function renderObject(s: RenderState, obj: Obj, depth: number, skip: ReadonlySet<string> = new Set()): void {
  const keys = Object.keys(obj).filter((k) => !skip.has(k));
  let done = 0;
  for (const key of keys) {
    if (s.lines.length >= s.maxLines) break;
    renderField(s, key, obj[key], depth);
    done += 1;
  }
  if (done < keys.length) {
    s.truncated = true;
    s.lines.push(mrkdwn`${indentOf(depth)}…and ${formatCount(keys.length - done)} more fields`);
  }
}

/** The payload as mrkdwn lines (at most `maxLines` + 1 for the "more" notice). */
export function genericPayloadLines(payload: unknown, options: GenericPayloadOptions = {}): Mrkdwn[] {
  const s: RenderState = {
    lines: [],
    maxLines: Math.max(1, options.maxLines ?? 60),
    maxDepth: options.maxDepth ?? 3,
    maxItems: options.maxItems ?? 8,
    maxLineLength: options.maxLineLength ?? 400,
    truncated: false,
  };
  if (isObj(payload)) renderObject(s, payload, 0, new Set(options.skipKeys ?? []));
  else if (Array.isArray(payload)) renderArray(s, 'items', payload, 0);
  else push(s, formatScalar(payload, 'value', s.maxLineLength));
  return s.lines;
}

/** The payload as section blocks within `budget` serialised characters, cut visibly. */
export function genericPayloadBlocks(
  payload: unknown,
  budget: number,
  options: GenericPayloadOptions = {},
): KnownBlock[] {
  const lines = genericPayloadLines(payload, options);
  const { kept, dropped } = takeLinesWithin(lines, budget - 40);
  return chunkSections(
    dropped > 0 ? [...kept, mrkdwn`…and ${formatCount(dropped)} more lines not shown`] : kept,
  );
}
