/**
 * One message of a Live or Pages listing (GET /crawler/live, /crawler/pages): the list's
 * rows found wherever the service put them (find-record-list.ts), each on its own line
 * with a button into its page, path or bot drawer, the rest of the payload as a summary
 * above them, and More. The service pages with a cursor (DESIGN.md `meta.next_cursor`);
 * when its page has more rows than one Slack message holds, More first shows the rest of
 * that page (same cursor, `skip` rows further) and only then asks for the next one, so no
 * row is ever passed over.
 */

import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { jsonLength, MESSAGE_BUDGET } from '../../views/take-lines-within.js';
import {
  CRAWLER_DRAWER_ACTION,
  CRAWLER_MORE_ACTION,
  type CrawlerDrawerValue,
  type CrawlerListPlace,
  type CrawlerListQuery,
  type CrawlerMoreValue,
  type DrawerKind,
  describeFilters,
  describeRange,
  drawerKindFor,
  entityIdOf,
} from './crawler-tab-view.js';
import { findPaging, findRecordList, withoutPaths } from './find-record-list.js';
import { genericPayloadBlocks } from './generic-payload.js';
import { isObj, type Obj } from './payload-values.js';
import { itemLine } from './record-row.js';

export interface CrawlerListInput {
  brand: { id: string; name: string };
  query: CrawlerListQuery;
  payload: Record<string, unknown>;
  /** Which page of the service this is and how many of its rows earlier messages showed. */
  place?: CrawlerListPlace | undefined;
  /** The current UTC day (`YYYY-MM-DD`): a one-day range on it reads "Today". */
  today?: string | undefined;
}

/** Fields that only repeat what was asked for; the header says it in words. */
const ECHO_KEYS = ['brand_id', 'range', 'filters', 'view', 'lens', 'status', 'sort'];
/** Slack's 50 blocks less the header, summary, position, More and the Share/View row. */
const MAX_ROWS = 36;
/** With fewer rows than this beside the summary, the summary makes way for rows. */
const MIN_ROWS_BESIDE_SUMMARY = 5;
/** Drawer values stay small so a message of rows keeps room for the rows. */
const MAX_DRAWER_VALUE = 300;

/** Each Live view and Pages lens in words (the View menu's choices, crawler-switcher.ts). */
const LIST_TITLE: Record<CrawlerListQuery['tab'], Readonly<Record<string, string>>> = {
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
const DEFAULT_MODE: Record<CrawlerListQuery['tab'], string> = { live: 'activity', pages: 'pages' };
const KIND_LABEL: Record<DrawerKind, Mrkdwn> = {
  page: mrkdwn`Page details`,
  path: mrkdwn`Path details`,
  bot: mrkdwn`Bot details`,
};

/** The listing's title; a view the service names that is not known reads as its default. */
function listTitle(query: CrawlerListQuery, payload: Obj): string {
  const titles = LIST_TITLE[query.tab];
  const given = query.tab === 'live' ? (query.view ?? payload['view']) : (query.lens ?? payload['lens']);
  return (
    (typeof given === 'string' ? ownLookup(titles, given.toLowerCase()) : undefined) ??
    titles[DEFAULT_MODE[query.tab]]!
  );
}

/** The row's drawer: the listing's kind, else whichever the row has a subject for. */
function drawerButton(
  brandId: string,
  query: CrawlerListQuery,
  item: Obj,
  index: number,
): Button | undefined {
  const preferred = drawerKindFor(query);
  const kinds: DrawerKind[] = [
    preferred,
    ...(['page', 'bot', 'path'] as const).filter((k) => k !== preferred),
  ];
  for (const kind of kinds) {
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
    // The row index makes action_ids unique in the message and says which row it is.
    return {
      type: 'button',
      action_id: `${CRAWLER_DRAWER_ACTION}:${index}`,
      text: { type: 'plain_text', text: KIND_LABEL[kind] },
      value: json,
    };
  }
  return undefined;
}

function rowBlock(brandId: string, query: CrawlerListQuery, item: unknown, index: number): KnownBlock {
  if (!isObj(item)) return sectionBlock(mrkdwn`• ${inlineText(JSON.stringify(item) ?? '', 200)}`);
  const accessory = drawerButton(brandId, query, item, index);
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: itemLine(item, 400) },
    ...(accessory ? { accessory } : {}),
  };
}

function moreBlock(value: CrawlerMoreValue): KnownBlock | undefined {
  const json = JSON.stringify(value);
  if (json.length > L.buttonValue) return undefined;
  return {
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

/** How many of `rows` fit in `room` serialised characters. */
function rowsWithin(rows: readonly KnownBlock[], room: number): number {
  let used = 0;
  let n = 0;
  for (const row of rows.slice(0, MAX_ROWS)) {
    used += jsonLength(row) + 1;
    if (used > room) break;
    n += 1;
  }
  return n;
}

/** How many rows the message shows, and whether the summary above them stays. */
function fitRows(rows: readonly KnownBlock[], summary: KnownBlock[], room: number) {
  const beside = rowsWithin(rows, room - jsonLength(summary));
  // The rows matter more than the summary: it makes way when few rows would fit beside it.
  if (beside < Math.min(rows.length, MIN_ROWS_BESIDE_SUMMARY) && rowsWithin(rows, room) > beside)
    return { shownSummary: [], shown: rowsWithin(rows, room) };
  return { shownSummary: summary, shown: beside };
}

function nothingText(query: CrawlerListQuery, itemsOnPage: number): Mrkdwn {
  if (itemsOnPage > 0) return mrkdwn`No more rows on this page.`;
  return describeFilters(query)
    ? mrkdwn`Nothing matches these filters.`
    : mrkdwn`Nothing to show in this range.`;
}

export function crawlerListReply(input: CrawlerListInput): Reply {
  const { brand, query, payload } = input;
  const found = findRecordList(payload);
  const paging = findPaging(payload, found?.path);
  const items = found?.items ?? [];
  const offset = Math.max(0, input.place?.offset ?? 0);
  const skip = Math.min(items.length, Math.max(0, input.place?.skip ?? 0));
  const title = listTitle(query, payload);

  const top = compact([
    headerBlock(escapeMrkdwn(`${title} · ${brand.name}`)),
    contextBlock(describeRange(query.range, payload['range'], input.today), describeFilters(query)),
  ]);
  const rest = withoutPaths(payload, [...(found ? [found.path] : []), ...paging.paths]);
  const summary = genericPayloadBlocks(rest, 2500, { skipKeys: ECHO_KEYS, maxLines: 20, maxDepth: 2 });
  const rows = items.slice(skip).map((item, i) => rowBlock(brand.id, query, item, skip + i));
  const base = { ...query, brandId: brand.id };
  // The More button is sized before the rows, at its largest, so fitting never drops it.
  // Either button it may become: the rest of this page, or the service's next page.
  const candidates = [
    moreBlock({ ...base, cursor: input.place?.cursor, offset: 1e9, skip: 1e3 }),
    moreBlock({ ...base, cursor: paging.nextCursor, offset: 1e9, skip: 0 }),
  ];
  const reserve = Math.max(...candidates.map((b) => (b ? jsonLength(b) : 0))) + 300;
  const { shownSummary, shown } = fitRows(rows, summary, MESSAGE_BUDGET - jsonLength(top) - reserve);
  const first = offset + skip + 1;
  const position =
    shown > 0
      ? mrkdwn`Rows ${formatCount(first)}–${formatCount(first + shown - 1)}${paging.total !== undefined ? mrkdwn` of ${formatCount(paging.total)}` : mrkdwn``}`
      : undefined;

  // The rest of this page before the service's next one: no row is passed over.
  const nextValue: CrawlerMoreValue | undefined =
    skip + shown < items.length
      ? { ...base, cursor: input.place?.cursor, offset, skip: skip + shown }
      : paging.nextCursor !== undefined
        ? { ...base, cursor: paging.nextCursor, offset: offset + items.length, skip: 0 }
        : undefined;
  const blocks: KnownBlock[] = [
    ...top,
    ...shownSummary,
    position ? sectionBlock(mrkdwn`*${position}*`) : sectionBlock(nothingText(query, items.length)),
    ...rows.slice(0, shown),
  ];
  // A page with no room for even one row would page in place for ever; an empty page goes on.
  const more = nextValue && (shown > 0 || nextValue.skip === 0) ? moreBlock(nextValue) : undefined;
  if (more) blocks.push(more);
  const text = mrkdwn`${escapeMrkdwn(`${title} for ${brand.name}`)}: ${position ?? mrkdwn`no rows`}.`;
  return { text: fallbackText(text), blocks };
}
