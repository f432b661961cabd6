/**
 * One record of a crawler list (a visit, a page, a path, a crawler, a session, whatever
 * the service sends) as one readable row: its name first (linked to its URL, labelled
 * with its title or path), its classifications in brackets ("OpenAI, Training bot"),
 * then its figures as phrases, most telling first ("5,596 visits · 26 pages crawled ·
 * last seen 27 Nov 2026"). Figures that do not fit are left out whole, never cut in
 * half; fields that repeat what the row already says (a path inside its URL) and ids are
 * left out.
 */
import { joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { codeValueText } from '../../../messages/vocabulary.js';
import { cleanText } from '../../views/clean-text.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import {
  COUNT_KEY,
  factText,
  hiddenField,
  isBlank,
  isScalar,
  NAME_KEYS,
  type Obj,
  STATUS_KEY,
  TAG_KEY,
  TIME_KEY,
} from './payload-values.js';

interface RecordRow {
  /** The record's name in bold, when it has one besides its link. */
  name?: Mrkdwn | undefined;
  link?: Mrkdwn | undefined;
  /** Classifications, shown in brackets after the name. */
  tags: Mrkdwn[];
  /** Figures and states as phrases, most telling first. */
  facts: Mrkdwn[];
}

/** Fields that make a good link label for a record's `url`, best first. */
const LINK_LABEL_KEYS = ['title', 'label', 'path'];
const MAX_TAGS = 3;

export function nameKeyOf(item: Obj): string | undefined {
  return NAME_KEYS.find((k) => typeof item[k] === 'string' && (item[k] as string).trim() !== '');
}

function factRank(key: string, value: unknown): number {
  if (STATUS_KEY.test(key) && typeof value === 'string') return 0;
  if (typeof value === 'number' && COUNT_KEY.test(key)) return 1;
  // When it happened matters more than the remaining details.
  if (TIME_KEY.test(key)) return 2;
  if (isScalar(value)) return 3;
  return 4;
}

/** "Training" and "Training bot" say one thing: the longer stays. */
function distinctTags(tags: readonly string[]): string[] {
  const lower = tags.map((t) => t.toLowerCase());
  return tags.filter(
    (_, i) =>
      lower.indexOf(lower[i]!) === i &&
      !lower.some((other, j) => j !== i && other !== lower[i] && other.startsWith(`${lower[i]} `)),
  );
}

function headOf(item: Obj): { row: Pick<RecordRow, 'name' | 'link'>; used: Set<string>; said: string } {
  const nameKey = nameKeyOf(item);
  const url = typeof item['url'] === 'string' && item['url'].trim() !== '' ? item['url'] : undefined;
  const labelKey = LINK_LABEL_KEYS.find(
    (k) => typeof item[k] === 'string' && (item[k] as string).trim() !== '',
  );
  const link =
    url !== undefined ? linkOrText(url, labelKey ? (item[labelKey] as string) : undefined, 90) : undefined;
  const named = nameKey !== undefined && nameKey !== 'url' && nameKey !== labelKey;
  // A code as the name (`blocked_by_firewall`) reads as words; names and prose stay as they are.
  const name =
    nameKey && (named || link === undefined)
      ? mrkdwn`*${inlineText(codeValueText(item[nameKey] as string, nameKey), 90)}*`
      : undefined;
  const used = new Set(
    [nameKey, ...(url !== undefined ? ['url', labelKey] : [])].filter((k) => k !== undefined),
  );
  const said = [nameKey, 'url', labelKey]
    .map((k) => (k ? String(item[k] ?? '') : ''))
    .join(' ')
    .toLowerCase();
  return { row: { name, link }, used, said };
}

export function recordRow(item: Obj): RecordRow {
  const { row, used, said } = headOf(item);
  const tagWords: string[] = [];
  const facts: { rank: number; text: Mrkdwn }[] = [];
  for (const [key, value] of Object.entries(item)) {
    if (used.has(key) || isBlank(value) || hiddenField(key, value)) continue;
    if (TAG_KEY.test(key) && typeof value === 'string') {
      tagWords.push(cleanText(codeValueText(value, key)));
      continue;
    }
    // A path or section the link already shows says nothing new.
    if (typeof value === 'string' && value.startsWith('/') && said.includes(value.toLowerCase())) continue;
    const text = factText(key, value, 120);
    if (text !== undefined) facts.push({ rank: factRank(key, value), text });
    if (facts.length > 40) break;
  }
  return {
    ...row,
    tags: distinctTags(tagWords)
      .slice(0, MAX_TAGS)
      .map((t) => inlineText(t, 40)),
    facts: facts.sort((a, b) => a.rank - b.rank).map((f) => f.text),
  };
}

/**
 * The row on one line of at most `max` characters: the head always, then as many whole
 * figures as fit (a figure that does not fit is left out, not cut).
 */
export function rowText(row: RecordRow, max = 320): Mrkdwn {
  const tags = row.tags.length > 0 ? mrkdwn`(${joinMrkdwn(row.tags, mrkdwn`, `)})` : undefined;
  // The name, what kind of thing it is, then where: "GPTBot (OpenAI, Training bot) /pricing".
  const headParts = [row.name, tags, row.link].filter((p): p is Mrkdwn => p !== undefined);
  const head = joinMrkdwn(headParts, mrkdwn` `);
  const shown: Mrkdwn[] = [];
  let length = head.length + 3;
  for (const fact of row.facts) {
    if (length + fact.length + 3 > max) continue;
    shown.push(fact);
    length += fact.length + 3;
  }
  const body = joinMrkdwn(shown, mrkdwn` · `);
  if (head.trim() === '') return body === '' ? mrkdwn`(no details)` : body;
  return body === '' ? head : mrkdwn`${head} — ${body}`;
}

/** A record as a bulleted line. */
export function itemLine(item: Obj, max = 320): Mrkdwn {
  return mrkdwn`• ${rowText(recordRow(item), max - 2)}`;
}
