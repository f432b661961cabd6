/**
 * One field of an undocumented crawler payload in a marketer's words: what kind of field
 * a key names (a count, a time, a status, an id), its value formatted (grouped numbers,
 * units, HTTP statuses explained, times relative, dates in words, codes as words) and the
 * field as a phrase ("5,596 visits", "last crawled 3 hours ago", "✓ key verified") rather
 * than a `key value` pair. Service prose is kept whole: shortened only at a word, with its
 * bare numbers grouped. Internal ids never show.
 */

import { formatCount } from '../../../messages/format-number.js';
import {
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  slackDate,
  slackDay,
} from '../../../messages/mrkdwn.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { codeValueText, fieldName, httpStatusText } from '../../../messages/vocabulary.js';
import { isCalendarDate } from '../../../utc-days.js';
import { cleanText } from '../../views/clean-text.js';
import { cutAtWord } from '../../views/cut-at-word.js';
import { linkOrText } from '../../views/link-or-text.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isScalar = (v: unknown): v is string | number | boolean | null =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);
/** Nothing to say: null, an empty string or list. */
export const isBlank = (v: unknown): boolean =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** Fields that name a record, best first. */
export const NAME_KEYS = ['title', 'name', 'label', 'crawler', 'bot', 'query', 'url', 'path', 'domain'];
/** Fields whose value is a count: shown number first ("5,596 visits"). */
export const COUNT_KEY =
  /count|visits|requests|total|pages|hits|sessions|mentions|urls|errors|crawlers|bots|submissions|successful|failed|pending/i;
export const TIME_KEY = /_at$|date|seen|time|At$/;
/** Classifications shown as a word, after the record's name ("GPTBot (OpenAI, Training)"). */
export const TAG_KEY = /^(platform|company|vendor|provider|intent|purpose|bot_type|type|category)$/i;
export const STATUS_KEY = /status$|^state$|verdict|severity|level/i;
/** Numbers that are codes, not quantities: no thousands separator. */
const CODE_NUMBER_KEY = /code|status|id$|year|port|version/i;
const HTTP_STATUS_KEY = /http_status|status_code|^status$|typical_status/i;
const MS_KEY = /(^|_)ms$|_millis$|Ms$/;
const PCT_KEY = /(^|_)(pct|percent|percentage)$|Pct$/;
const SECONDS_KEY = /_(seconds|minutes|hours|days)$/;
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Internal ids (`vis_20780_1_152`, `fnd_e2f496a904b5`) mean nothing to a reader: they are
 * kept out of the text (buttons carry them where an action needs one).
 */
const INTERNAL_ID = /^[a-z]{2,5}_(?=[a-z0-9_]*\d)[a-z0-9_]{4,}$/i;
const ID_KEY = /(^|_)id$|Id$|^cursor$|^uuid$|_ref$/;
export const isInternalId = (value: unknown): boolean =>
  typeof value === 'string' && INTERNAL_ID.test(value.trim());
export const hiddenField = (key: string, value: unknown): boolean => ID_KEY.test(key) || isInternalId(value);

/** `total_visits` → `Total visits`, `response_ms` → `Response time` (the vocabulary first). */
export function humanizeKey(key: string): string {
  const words = fieldName(key);
  // `robots.txt` and `llms.txt` are names, not sentences: they keep their case.
  const text = words.includes('.') ? words : words === '' ? key : words[0]!.toUpperCase() + words.slice(1);
  return truncatePlain(text, 60);
}

const label = (key: string): Mrkdwn => escapeMrkdwn(humanizeKey(key));
/** The field's words in lower case; a time's "at" goes ("submitted 3 days ago"). */
const lowerLabel = (key: string): Mrkdwn =>
  escapeMrkdwn(truncatePlain(fieldName(key).replace(/ at$/, ''), 60));

/** Objects that break a figure down (`by_status`, `status_codes`): counts per category. */
const BREAKDOWN_KEY = /^by_|_by_|breakdown|distribution|_codes$|counts?$|^statuses$/i;

/**
 * Whether an all-number object is a breakdown (categories → counts) rather than a set of
 * figures (`{total_visits, error_rate_pct}`): by its key, or by keys that are names or codes.
 */
export function isBreakdown(key: string, value: Obj): boolean {
  if (BREAKDOWN_KEY.test(key)) return true;
  return Object.keys(value).every((k) => /^\d+$/.test(k) || /[A-Z-]/.test(k));
}

/** A day of the API (`YYYY-MM-DD`) in the one date style, as Slack's date token; else as sent. */
export function dayWords(date: string): Mrkdwn {
  return isCalendarDate(date) ? slackDay(date) : escapeMrkdwn(truncatePlain(cleanText(date), 20));
}

/** ISO times as Slack's relative date token ("3 minutes ago", the date on hover). */
function momentText(iso: string, match: RegExpExecArray): Mrkdwn {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return dayWords(match[1]!);
  return slackDate(ms, '{ago}');
}

/** Bare numbers in prose grouped ("5596 visits" → "5,596 visits"); four-digit years stay. */
function groupNumbers(text: string): string {
  return text.replace(/(?<![\d.,:/\-_#A-Za-z])\d{4,}(?![\d.,:/\-_A-Za-z])/g, (digits) =>
    digits.length === 4 && /^(19|20)\d\d$/.test(digits) ? digits : formatCount(Number(digits)),
  );
}

/** Service prose on one line, whole words, numbers grouped, escaped. */
export function proseText(text: string, max = 600): Mrkdwn {
  const clean = cleanText(text).replace(/\s+/g, ' ').trim();
  return escapeMrkdwn(cutAtWord(groupNumbers(clean), max));
}

/** A value in words, without its field's name. */
export function valueText(value: unknown, key: string, max = 200): Mrkdwn {
  if (value === null || value === undefined) return mrkdwn`—`;
  if (typeof value === 'boolean') return value ? mrkdwn`yes` : mrkdwn`no`;
  if (typeof value === 'number') return numberText(value, key);
  const text = String(value);
  const time = ISO_TIME.exec(text);
  if (time) return momentText(text, time);
  if (isCalendarDate(text)) return slackDay(text);
  if (/^https?:\/\//i.test(text)) return linkOrText(text, undefined, Math.min(max, 90));
  if (isInternalId(text)) return mrkdwn`—`;
  return proseText(codeValueText(text, key), max);
}

function numberText(value: number, key: string): Mrkdwn {
  if (!Number.isFinite(value)) return mrkdwn`—`;
  if (HTTP_STATUS_KEY.test(key) && Number.isInteger(value) && value >= 100 && value < 600)
    return escapeMrkdwn(httpStatusText(value));
  if (MS_KEY.test(key)) return mrkdwn`${formatCount(value)} ms`;
  if (PCT_KEY.test(key)) return mrkdwn`${formatCount(value)} %`;
  return CODE_NUMBER_KEY.test(key) ? escapeMrkdwn(String(value)) : formatCount(value);
}

/**
 * A field on a line of its own, as its name and its value: a time's name without "at"
 * ("Sent: 2 minutes ago"), a duration's unit with the number ("Expected within: 60 seconds").
 */
export function namedValue(key: string, value: unknown, max = 200): [Mrkdwn, Mrkdwn] {
  const unit = SECONDS_KEY.exec(key);
  if (unit && typeof value === 'number' && Number.isFinite(value))
    return [label(key.slice(0, unit.index)), mrkdwn`${formatCount(value)} ${escapeMrkdwn(unit[1]!)}`];
  const name = TIME_KEY.test(key) ? escapeMrkdwn(humanizeKey(key).replace(/ at$/, '')) : label(key);
  return [name, valueText(value, key, max)];
}

/** "1 visit", "2 visits": the first word of the noun follows the count. */
function countedWords(n: number, words: string): string {
  if (n !== 1) return words;
  const [first = '', ...rest] = words.split(' ');
  const singular = /[^s]s$/.test(first) ? first.slice(0, -1) : first;
  return [singular, ...rest].join(' ');
}

/** Booleans as a mark and the field's words: "✓ key verified", "✗ present". */
const flagText = (key: string, on: boolean): Mrkdwn =>
  mrkdwn`${on ? mrkdwn`✓` : mrkdwn`✗`} ${lowerLabel(key)}`;

/**
 * One field as a phrase, or undefined when there is nothing to say (null, empty, an id).
 * Counts lead with the number, units follow it, times and classifications follow their
 * name, booleans are a mark.
 */
export function factText(key: string, value: unknown, max = 160): Mrkdwn | undefined {
  if (isBlank(value) || hiddenField(key, value)) return undefined;
  if (typeof value === 'boolean') return flagText(key, value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const unit = SECONDS_KEY.exec(key);
    if (unit)
      return mrkdwn`${lowerLabel(key.slice(0, unit.index))} ${formatCount(value)} ${escapeMrkdwn(unit[1]!)}`;
    if (COUNT_KEY.test(key) && !PCT_KEY.test(key) && !MS_KEY.test(key) && !HTTP_STATUS_KEY.test(key))
      return mrkdwn`${formatCount(value)} ${escapeMrkdwn(countedWords(value, fieldName(key)))}`;
    return mrkdwn`${lowerLabel(key)} ${numberText(value, key)}`;
  }
  if (typeof value === 'string') {
    if (STATUS_KEY.test(key)) return valueText(value, key, max);
    return mrkdwn`${lowerLabel(key)} ${valueText(value, key, max)}`;
  }
  if (Array.isArray(value) && value.every(isScalar))
    return mrkdwn`${lowerLabel(key)}: ${scalarList(
      value.filter((v) => !isBlank(v)),
      key,
      3,
    )}`;
  if (isObj(value) && isBreakdown(key, value)) {
    const counts = countsText(value, 6);
    return counts ? mrkdwn`${lowerLabel(key)}: ${counts}` : undefined;
  }
  return undefined;
}

export function scalarList(values: readonly unknown[], key: string, max = 5): Mrkdwn {
  const shown = values.slice(0, max).map((v) => valueText(v, key, 60));
  const more = values.length > max ? mrkdwn`, +${formatCount(values.length - max)} more` : mrkdwn``;
  return mrkdwn`${joinMrkdwn(shown, mrkdwn`, `)}${more}`;
}

/**
 * `{cited: 3, converting: 1, crawled: 0}` → "3 cited, 1 converting"; `{"200": 10, "404": 1}`
 * → "10 × 200 OK, 1 × 404 Not found"; `{GPTBot: 713}` → "GPTBot 713". Zeros are left out,
 * the largest first. Undefined when the object is not all numbers.
 */
export function countsText(value: Obj, maxEntries = 4): Mrkdwn | undefined {
  const entries = Object.entries(value);
  if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'number' && Number.isFinite(v)))
    return undefined;
  const nonZero = (entries as [string, number][]).filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1]);
  if (nonZero.length === 0) return mrkdwn`none`;
  const shown = nonZero.slice(0, maxEntries).map(([k, v]) => {
    if (/^[1-5]\d\d$/.test(k)) return mrkdwn`${formatCount(v)} × ${escapeMrkdwn(httpStatusText(Number(k)))}`;
    // A code (`cited`, `not_found`) reads after its count; a name (`GPTBot`) before it.
    if (/^[a-z0-9_-]+$/.test(k))
      return mrkdwn`${formatCount(v)} ${escapeMrkdwn(codeValueText(k).toLowerCase())}`;
    return mrkdwn`${escapeMrkdwn(truncatePlain(cleanText(k), 40))} ${formatCount(v)}`;
  });
  const more =
    nonZero.length > maxEntries ? mrkdwn`, +${formatCount(nonZero.length - maxEntries)} more` : mrkdwn``;
  return mrkdwn`${joinMrkdwn(shown, mrkdwn`, `)}${more}`;
}
