/**
 * `/visibility crawler <brand> live|pages|access`: the dashboard tabs whose payloads are
 * not documented, rendered generically (generic-payload.ts). Cursor-paged lists
 * (DESIGN.md: `meta.next_cursor`, null = end) get a "More" button, and their rows a button
 * opening the page, path or bot drawer.
 */

import type { DateRangeParams } from '../../../api/visibility-api.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import {
  codeValueText,
  fieldName,
  httpStatusText,
  intentName,
  pageStatusName,
} from '../../../messages/vocabulary.js';
import { isCalendarDate } from '../../../utc-days.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { jsonLength, roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';
import { genericPayloadBlocks, isInternalId, itemLine, primaryKeyOf } from './generic-payload.js';

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

/** The button value `vis:crawler:more` receives. */
export interface CrawlerMoreValue extends CrawlerListQuery {
  brandId: string;
  cursor: string;
  /** How many rows came before the next page (for "26–50 of 312"). */
  offset: number;
}

/** The button value `vis:crawler:drawer` receives. */
export interface CrawlerDrawerValue {
  brandId: string;
  kind: DrawerKind;
  entityId: string;
  range?: DateRangeParams | undefined;
}

export interface CrawlerListInput {
  brand: { id: string; name: string };
  query: CrawlerListQuery;
  payload: Record<string, unknown>;
  /** Rows shown on earlier pages. */
  offset?: number;
  /** The current UTC day (`YYYY-MM-DD`): a one-day range on it reads "Today". */
  today?: string | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_DRAWER_BUTTONS = 10;
/** Drawer values stay small so ten of them leave room for the rows. */
const MAX_DRAWER_VALUE = 300;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-24` → "24 Nov 2026"; anything that is not a calendar date, as sent. */
function dateWords(date: string): Mrkdwn {
  if (!isCalendarDate(date)) return inlineText(date, 20);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return escapeMrkdwn(`${day} ${MONTHS[month - 1]} ${year}`);
}

const PRESET_WORDS: Readonly<Record<string, string>> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

/**
 * The range in words: "Today", one date when it is a single day, else "18 Nov 2026 –
 * 24 Nov 2026", after the preset typed ("Last 7 days"). `today` is the service's current
 * UTC day (the API's dates are UTC days); without it a single day is its date.
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
        ? mrkdwn`Today (${dateWords(start)})`
        : dateWords(start)
      : mrkdwn`${dateWords(start)} – ${dateWords(end)}`;
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

/** Which drawer a row of this listing opens, if any (activity rows are single visits). */
export function drawerKindFor(q: CrawlerListQuery): DrawerKind | undefined {
  if (q.tab === 'pages') return q.lens === 'paths' ? 'path' : q.lens === 'bots' ? 'bot' : 'page';
  return q.view === 'pages' ? 'page' : undefined;
}

export function entityIdOf(item: Obj, kind: DrawerKind): string | undefined {
  const keys =
    kind === 'page'
      ? ['id', 'url', 'path']
      : kind === 'path'
        ? ['id', 'path', 'name']
        : ['id', 'name', 'crawler'];
  for (const k of keys) {
    const v = item[k];
    if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') return String(v);
  }
  return undefined;
}

const KIND_LABEL: Record<DrawerKind, string> = { page: 'Page', path: 'Path', bot: 'Bot' };

function drawerButtons(brandId: string, query: CrawlerListQuery, items: readonly unknown[]): Button[] {
  const kind = drawerKindFor(query);
  if (!kind) return [];
  const buttons: Button[] = [];
  for (const [index, item] of items.entries()) {
    if (buttons.length >= MAX_DRAWER_BUTTONS) break;
    if (!isObj(item)) continue;
    const entityId = entityIdOf(item, kind);
    if (entityId === undefined) continue;
    const value: CrawlerDrawerValue = {
      brandId,
      kind,
      entityId,
      ...(query.range ? { range: query.range } : {}),
    };
    const json = JSON.stringify(value);
    if (json.length > MAX_DRAWER_VALUE) continue;
    const key = primaryKeyOf(item);
    const name = String(
      (key === 'title' || key === 'name' ? undefined : item['path']) ??
        (key !== undefined ? item[key] : undefined) ??
        (isInternalId(entityId) ? 'details' : entityId),
    );
    buttons.push({
      type: 'button',
      // The row index makes action_ids unique in the block and tells which rows have one.
      action_id: `${CRAWLER_DRAWER_ACTION}:${index}`,
      text: {
        type: 'plain_text',
        text: truncatePlain(
          escapeMrkdwn(`${KIND_LABEL[kind]}: ${name.replace(/\s+/g, ' ').trim() || entityId}`),
          75,
        ),
      },
      value: json,
    });
  }
  return buttons;
}

/** Each Live view and Pages lens in words (the View menu's choices, crawler-switcher.ts). */
const LIST_TITLE: Record<CrawlerListTab, Readonly<Record<string, string>>> = {
  live: {
    activity: 'Live crawler visits',
    pages: 'Live crawler visits by page',
    sessions: 'Live crawler sessions',
  },
  pages: {
    pages: 'AI crawler pages',
    paths: 'AI crawler pages by path',
    bots: 'AI crawler pages by crawler',
  },
};
const DEFAULT_MODE: Record<CrawlerListTab, string> = { live: 'activity', pages: 'pages' };

/** The listing's title; a view the service names that is not known reads as its default. */
function listTitle(query: CrawlerListQuery, payload: Obj): string {
  const titles = LIST_TITLE[query.tab];
  const given = query.tab === 'live' ? (query.view ?? payload['view']) : (query.lens ?? payload['lens']);
  return (
    (typeof given === 'string' ? ownLookup(titles, given.toLowerCase()) : undefined) ??
    titles[DEFAULT_MODE[query.tab]]!
  );
}

export function crawlerListReply(input: CrawlerListInput): Reply {
  const { brand, query, payload } = input;
  const offset = Math.max(0, input.offset ?? 0);
  const items = Array.isArray(payload['items']) ? (payload['items'] as unknown[]) : [];
  const meta = isObj(payload['meta']) ? payload['meta'] : {};
  const total = typeof meta['total'] === 'number' ? meta['total'] : undefined;
  const nextCursor =
    typeof meta['next_cursor'] === 'string' && meta['next_cursor'] !== '' ? meta['next_cursor'] : undefined;
  const title = listTitle(query, payload);

  const top = compact([
    headerBlock(escapeMrkdwn(`${title} · ${brand.name}`)),
    contextBlock(describeRange(query.range, payload['range'], input.today), describeFilters(query)),
  ]);
  const summary = genericPayloadBlocks(payload, 2500, {
    skipKeys: ['items', 'meta', 'brand_id', 'range', 'filters', 'view', 'lens', 'status', 'sort'],
    maxLines: 20,
    maxDepth: 2,
  });
  // Buttons are sized first: the rows get whatever room is left, so fitMessage never has
  // to cut the More button off the end.
  const drawers = drawerButtons(brand.id, query, items);
  while (drawers.length > 0 && jsonLength(drawers) > 3000) drawers.pop();
  let more: KnownBlock | undefined;
  if (nextCursor !== undefined) {
    const value: CrawlerMoreValue = {
      ...query,
      brandId: brand.id,
      cursor: nextCursor,
      offset: offset + items.length,
    };
    const json = JSON.stringify(value);
    if (json.length <= L.buttonValue) {
      more = {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: CRAWLER_MORE_ACTION,
            text: { type: 'plain_text', text: mrkdwn`More ▶` },
            value: json,
          },
        ],
      };
    }
  }
  const drawerBlock: KnownBlock | undefined =
    drawers.length > 0 ? { type: 'actions', elements: drawers } : undefined;
  const lines = items.map((item) =>
    isObj(item) ? itemLine(item, 400) : mrkdwn`• ${inlineText(JSON.stringify(item) ?? '', 200)}`,
  );
  // The rows matter more than the summary: when both do not fit, the summary goes.
  let shownSummary = summary;
  let room = roomLeft([...top, ...summary, drawerBlock, more]) - 100;
  if (room < 2000 && lines.length > 0) {
    shownSummary = [];
    room = roomLeft([...top, drawerBlock, more]) - 100;
  }
  const { kept } = takeLinesWithin(lines, room);
  const shown = kept.length;

  const blocks: KnownBlock[] = [...top, ...shownSummary];
  const position =
    shown > 0
      ? mrkdwn`Rows ${formatCount(offset + 1)}–${formatCount(offset + shown)}${total !== undefined ? mrkdwn` of ${formatCount(total)}` : mrkdwn``}`
      : undefined;
  if (shown === 0) {
    blocks.push(
      sectionBlock(
        describeFilters(query)
          ? mrkdwn`Nothing matches these filters.`
          : mrkdwn`Nothing to show in this range.`,
      ),
    );
  } else {
    blocks.push(...chunkSections([mrkdwn`*${position ?? mrkdwn``}*`, ...kept]));
  }
  // The cursor is the service's: rows of this page that did not fit would be passed over
  // by More, so say so (a smaller --limit shows them all).
  if (shown < items.length) {
    blocks.push(
      sectionBlock(
        mrkdwn`_${formatCount(items.length - shown)} more rows of this page did not fit; use a smaller \`--limit\`._`,
      ),
    );
  }
  const shownDrawers = drawers.filter((b) => Number(b.action_id?.split(':').at(-1)) < shown);
  if (shownDrawers.length > 0) blocks.push({ type: 'actions', elements: shownDrawers });
  if (more) blocks.push(more);
  const text = mrkdwn`${escapeMrkdwn(`${title} for ${brand.name}`)}: ${position ?? mrkdwn`nothing to show`}.`;
  return { text: fallbackText(text), blocks };
}

export interface CrawlerPayloadInput {
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
  });
  blocks.push(...(body.length > 0 ? body : [sectionBlock(mrkdwn`The service sent no details.`)]));
  if (hint) blocks.push(hint);
  blocks.push(...actions);
  // The fallback is plain text: bold and code marks go, emoji names stay (Slack renders them).
  // Removing markers from escaped text leaves it escaped.
  const lead = input.lead ? mrkdwn` ${input.lead.replace(/[*`]/g, '') as Mrkdwn}` : mrkdwn``;
  return {
    text: fallbackText(mrkdwn`${escapeMrkdwn(`${input.title} for ${input.brand.name}`)}.${lead}`),
    blocks,
  };
}

/** The button value `vis:crawler:preview-fix` receives. */
export interface CrawlerPreviewFixValue {
  brandId: string;
  findingId: string;
}

const MAX_FIX_BUTTONS = 20;

/**
 * One "Preview fix" button per access finding that has a fix, labelled with the finding's
 * title: the id stays in the button value, so nobody copies it by hand.
 */
export function previewFixButtons(brandId: string, payload: Record<string, unknown>): KnownBlock[] {
  const findings = Array.isArray(payload['findings']) ? payload['findings'] : [];
  const buttons: Button[] = [];
  for (const [index, finding] of findings.entries()) {
    if (buttons.length >= MAX_FIX_BUTTONS) break;
    if (!isObj(finding) || typeof finding['id'] !== 'string' || finding['id'].trim() === '') continue;
    if (finding['fix_available'] === false) continue;
    const value: CrawlerPreviewFixValue = { brandId, findingId: finding['id'] };
    const json = JSON.stringify(value);
    // Small values, so twenty buttons still leave the findings room in the message.
    if (json.length > MAX_DRAWER_VALUE) continue;
    const title = typeof finding['title'] === 'string' ? finding['title'].replace(/\s+/g, ' ').trim() : '';
    buttons.push({
      type: 'button',
      action_id: `${CRAWLER_PREVIEW_FIX_ACTION}:${index}`,
      text: {
        type: 'plain_text',
        text: truncatePlain(
          escapeMrkdwn(title === '' ? 'Preview fix' : `Preview fix: ${title}`),
          L.buttonText,
        ),
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
