/**
 * What the crawler tabs share: the action ids and button values of the Live and Pages
 * listings, the range and filters in words, which drawer a row opens, and the reply for
 * payloads that are not listings (Access, drawers, ping, submit, fix previews): a title
 * and the payload in words (generic-payload.ts). The listing itself is crawler-list-view.ts.
 */

import type { DateRangeParams } from '../../../api/visibility-api.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import {
  codeValueText,
  fieldName,
  httpStatusText,
  intentName,
  pageStatusName,
} from '../../../messages/vocabulary.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { cutAtWord } from '../../views/cut-at-word.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { tablesText, textWithTable } from '../../views/tables-as-text.js';
import { jsonLength, roomLeft } from '../../views/take-lines-within.js';
import { genericPayloadBlocks } from './generic-payload.js';
import { isIssueList } from './payload-shapes.js';
import { dayWords, isObj, type Obj } from './payload-values.js';

export const CRAWLER_MORE_ACTION = 'vis:crawler:more';
export const CRAWLER_DRAWER_ACTION = 'vis:crawler:drawer';
export const CRAWLER_PREVIEW_FIX_ACTION = 'vis:crawler:preview-fix';

export type CrawlerListTab = 'live' | 'pages';
export type DrawerKind = 'page' | 'path' | 'bot';

/** What a Live or Pages listing asked for; the More button carries it with the cursor. */
export interface CrawlerListQuery {
  tab: CrawlerListTab;
  range?: DateRangeParams | undefined;
  view?: 'activity' | 'pages' | 'sessions' | undefined;
  lens?: 'pages' | 'paths' | 'bots' | undefined;
  /** Live: an HTTP status; Pages: a page status or `all`. */
  status?: string | undefined;
  intent?: string | undefined;
  platform?: string | undefined;
  search?: string | undefined;
  limit?: number | undefined;
}

/** Where a listing reply is: which service page, and how many of its rows came before. */
export interface CrawlerListPlace {
  /** The service's cursor of the page shown; none for the first page. */
  cursor?: string | undefined;
  /** Rows of the service's earlier pages (for "26–50 of 312"). */
  offset?: number | undefined;
  /** Rows of this service page shown by earlier messages (a page too long for one message). */
  skip?: number | undefined;
}

/** The button value `vis:crawler:more` receives: the next rows, of this page or the next. */
export interface CrawlerMoreValue extends CrawlerListQuery, CrawlerListPlace {
  brandId: string;
}

/** The button value `vis:crawler:drawer` receives. */
export interface CrawlerDrawerValue {
  brandId: string;
  kind: DrawerKind;
  entityId: string;
  range?: DateRangeParams | undefined;
}

const PRESET_WORDS: Readonly<Record<string, string>> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

/**
 * The range in the one date style, after the preset typed: "Last 7 days: Nov 18, 2026 –
 * Nov 24, 2026"; one date when it is a single day ("Today (Nov 27, 2026)"), or the preset
 * alone when the payload says no dates. `today` is the service's current UTC day (the API's dates are UTC days).
 */
export function describeRange(
  range: DateRangeParams | undefined,
  payloadRange?: unknown,
  today?: string,
): Mrkdwn | undefined {
  const preset = range?.rangePreset !== undefined ? ownLookup(PRESET_WORDS, range.rangePreset) : undefined;
  let start: string | undefined;
  let end: string | undefined;
  if (
    isObj(payloadRange) &&
    typeof payloadRange['start'] === 'string' &&
    typeof payloadRange['end'] === 'string'
  ) {
    start = payloadRange['start'];
    end = payloadRange['end'];
  } else if (range?.rangePreset === 'custom') {
    start = range.startDate;
    end = range.endDate;
  }
  if (start === undefined || end === undefined) return preset ? escapeMrkdwn(preset) : undefined;
  const dates =
    start === end
      ? start === today
        ? mrkdwn`Today (${dayWords(start)})`
        : dayWords(start)
      : mrkdwn`${dayWords(start)} – ${dayWords(end)}`;
  return preset ? mrkdwn`${escapeMrkdwn(preset)}: ${dates}` : dates;
}

/** The filters typed, each named and valued in the vocabulary's words ("purpose Search"). */
export function describeFilters(q: CrawlerListQuery): Mrkdwn | undefined {
  const status =
    q.status === undefined
      ? undefined
      : q.tab === 'live' && /^\d{3}$/.test(q.status)
        ? mrkdwn`${escapeMrkdwn(fieldName('http_status'))} ${escapeMrkdwn(httpStatusText(Number(q.status)))}`
        : q.status === 'all'
          ? undefined
          : mrkdwn`${escapeMrkdwn(fieldName('status'))} ${inlineText(pageStatusName(q.status), 30)}`;
  const parts = [
    status,
    q.intent
      ? mrkdwn`${escapeMrkdwn(fieldName('intent'))} ${inlineText(intentName(q.intent), 30)}`
      : undefined,
    q.platform
      ? mrkdwn`${escapeMrkdwn(fieldName('platform'))} ${inlineText(codeValueText(q.platform, 'platform'), 30)}`
      : undefined,
    q.search ? mrkdwn`search “${inlineText(q.search, 60)}”` : undefined,
  ].filter((part): part is Mrkdwn => part !== undefined);
  return parts.length > 0 ? joinMrkdwn(parts, mrkdwn`, `) : undefined;
}

/**
 * Which drawer a row of this listing opens: the page a visit or a page row is about, the
 * crawler of a session or a crawler row, the section of a path row.
 */
export function drawerKindFor(q: CrawlerListQuery): DrawerKind {
  if (q.tab === 'pages') return q.lens === 'paths' ? 'path' : q.lens === 'bots' ? 'bot' : 'page';
  return q.view === 'sessions' ? 'bot' : 'page';
}

/** Fields that name the drawer's subject, best first: a page by its URL, a bot by its name. */
const ENTITY_KEYS: Record<DrawerKind, readonly string[]> = {
  page: ['url', 'path', 'page_url', 'page', 'id'],
  path: ['path', 'section', 'prefix', 'id', 'name'],
  bot: ['crawler', 'bot', 'name', 'crawler_id', 'bot_id', 'id'],
};

export function entityIdOf(item: Obj, kind: DrawerKind): string | undefined {
  for (const k of ENTITY_KEYS[kind]) {
    const v = item[k];
    if ((typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v)))
      return String(v).trim();
  }
  return undefined;
}

interface CrawlerPayloadInput {
  brand: { id: string; name: string };
  title: string;
  lead?: Mrkdwn | undefined;
  payload: Record<string, unknown>;
  /** A hint under the payload. */
  hint?: Mrkdwn | undefined;
  skipKeys?: readonly string[];
  /** Buttons under the payload (e.g. one "Preview fix" per access finding). */
  actions?: readonly KnownBlock[] | undefined;
}

/** Access tab, drawers, ping, submit, submit status and fix previews: a title and the payload. */
export function crawlerPayloadReply(input: CrawlerPayloadInput): Reply {
  const blocks: KnownBlock[] = compact([
    headerBlock(escapeMrkdwn(`${input.title} · ${input.brand.name}`)),
    input.lead ? sectionBlock(input.lead, 1500) : undefined,
    contextBlock(describeRange(undefined, input.payload['range'])),
  ]);
  const hint = input.hint ? contextBlock(input.hint) : undefined;
  const actions = input.actions ?? [];
  const body = genericPayloadBlocks(input.payload, Math.min(9500, roomLeft([...blocks, hint, ...actions])), {
    skipKeys: ['brand_id', 'range', ...(input.skipKeys ?? [])],
    maxLines: 70,
    nativeTables: true,
  });
  blocks.push(...(body.length > 0 ? body : [sectionBlock(mrkdwn`The service sent no details.`)]));
  if (hint) blocks.push(hint);
  blocks.push(...actions);
  // The fallback is plain text: bold and code marks go, emoji names stay (Slack renders them).
  // Removing markers from escaped text leaves it escaped.
  const lead = input.lead ? mrkdwn` ${input.lead.replace(/[*`]/g, '') as Mrkdwn}` : mrkdwn``;
  const sentence = fallbackText(mrkdwn`${escapeMrkdwn(`${input.title} for ${input.brand.name}`)}.${lead}`);
  const tables = tablesText(body);
  return { text: tables ? textWithTable(sentence, tables) : sentence, blocks };
}

/** The button value `vis:crawler:preview-fix` receives. */
interface CrawlerPreviewFixValue {
  brandId: string;
  findingId: string;
}

const MAX_FIX_BUTTONS = 20;
/** Small values, so twenty buttons still leave the findings room in the message. */
const MAX_FIX_VALUE = 300;

/** The payload's findings: its list of problems that carry ids, whatever its key. */
function findingsOf(payload: Obj): Obj[] {
  for (const value of Object.values(payload)) {
    if (Array.isArray(value) && isIssueList(value) && value.some((f) => typeof f['id'] === 'string'))
      return value;
  }
  return [];
}

/**
 * One "Preview fix" button per access finding that has a fix, labelled with the finding's
 * title: the id stays in the button value, so nobody copies it by hand.
 */
export function previewFixButtons(brandId: string, payload: Record<string, unknown>): KnownBlock[] {
  const buttons: Button[] = [];
  for (const [index, finding] of findingsOf(payload).entries()) {
    if (buttons.length >= MAX_FIX_BUTTONS) break;
    if (typeof finding['id'] !== 'string' || finding['id'].trim() === '') continue;
    if (finding['fix_available'] === false) continue;
    const value: CrawlerPreviewFixValue = { brandId, findingId: finding['id'] };
    const json = JSON.stringify(value);
    if (json.length > MAX_FIX_VALUE) continue;
    const title = typeof finding['title'] === 'string' ? finding['title'].replace(/\s+/g, ' ').trim() : '';
    buttons.push({
      type: 'button',
      action_id: `${CRAWLER_PREVIEW_FIX_ACTION}:${index}`,
      text: {
        type: 'plain_text',
        text: cutAtWord(escapeMrkdwn(title === '' ? 'Preview fix' : `Preview fix: ${title}`), L.buttonText),
      },
      value: json,
    });
  }
  while (buttons.length > 0 && jsonLength(buttons) > 4000) buttons.pop();
  // Slack takes at most 25 elements per actions block; rows of five keep them readable.
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < buttons.length; i += 5)
    blocks.push({ type: 'actions', elements: buttons.slice(i, i + 5) });
  return blocks;
}
