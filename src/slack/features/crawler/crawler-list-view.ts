/**
 * One message of a Live or Pages listing (GET /crawler/live, /crawler/pages): the list's
 * rows found wherever the service put them (find-record-list.ts) as Slack's own table
 * (sortable figures, paged in the message), a button per row under it into its page, path
 * or bot drawer (a table cell cannot hold one), the rest of the payload as a summary
 * above, and More. Rows that make no table (not records) stay lines, each with its button. The service pages with a cursor (docs/api.md §10 `meta.next_cursor`);
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
import { cutAtWord } from '../../views/cut-at-word.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { nativeTable, valueText } from '../../views/table-model.js';
import { textWithTable } from '../../views/tables-as-text.js';
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
import { recordTable } from './record-table.js';

interface CrawlerListInput {
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
/** Rows a table shows at once; Slack pages through the rest inside the message. */
const TABLE_PAGE_SIZE = 10;
/** Details buttons per actions block: rows of five stay readable. */
const BUTTONS_PER_ROW = 5;
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
  name?: string,
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
    // Under a table the button says whose details it opens: "Page details: Pricing".
    const label = name
      ? cutAtWord(mrkdwn`${KIND_LABEL[kind]}: ${inlineText(name, 70)}`, L.buttonText)
      : KIND_LABEL[kind];
    return {
      type: 'button',
      action_id: `${CRAWLER_DRAWER_ACTION}:${index}`,
      text: { type: 'plain_text', text: label },
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

/** What the rows of one message are drawn as: blocks, and the rows in text for the fallback. */
interface RowsDrawn {
  blocks: KnownBlock[];
  text?: Mrkdwn;
}

/**
 * `items` (the first row being number `first` of the service page) as Slack's table with a
 * details button per row under it, or undefined when they make no table or not all fit one.
 */
function tableOf(
  brandId: string,
  query: CrawlerListQuery,
  items: readonly unknown[],
  first: number,
  caption: string,
): RowsDrawn | undefined {
  const table = recordTable(items, { minRows: 1, listing: true });
  if (!table) return undefined;
  const native = nativeTable(table, { caption, pageSize: TABLE_PAGE_SIZE });
  if (!native.block || native.omitted > 0) return undefined;
  const buttons = items.flatMap(
    (item, i) => drawerButton(brandId, query, item as Obj, first + i, valueText(table.rows[i]?.[0])) ?? [],
  );
  const rows: KnownBlock[] = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW)
    rows.push({ type: 'actions', elements: buttons.slice(i, i + BUTTONS_PER_ROW) });
  return { blocks: [native.block as KnownBlock, ...rows], text: native.text };
}

const moreButtonBlock = (json: string): KnownBlock => ({
  type: 'actions',
  elements: [
    {
      type: 'button',
      action_id: CRAWLER_MORE_ACTION,
      text: { type: 'plain_text', text: mrkdwn`More ▶` },
      value: json,
    },
  ],
});

function moreBlock(value: CrawlerMoreValue): KnownBlock | undefined {
  const json = JSON.stringify(value);
  return json.length > L.buttonValue ? undefined : moreButtonBlock(json);
}

/**
 * The most room a More block for `value` (at any offset and skip) takes: the block at the
 * largest offset and skip, measured whatever its length, since a smaller offset may still
 * fit a button; none when even the smallest does not.
 */
function moreRoom(value: Omit<CrawlerMoreValue, 'offset' | 'skip'>): number {
  if (JSON.stringify({ ...value, offset: 0, skip: 0 }).length > L.buttonValue) return 0;
  return jsonLength(moreButtonBlock(JSON.stringify({ ...value, offset: 1e9, skip: 1e3 })));
}

/** The most rows (up to MAX_ROWS) whose drawing fits in `room` serialised characters. */
function fitRows(
  count: number,
  draw: (n: number) => RowsDrawn,
  room: number,
): { n: number; drawn: RowsDrawn } {
  for (let n = Math.min(count, MAX_ROWS); n > 0; n -= 1) {
    const drawn = draw(n);
    if (jsonLength(drawn.blocks) <= room) return { n, drawn };
  }
  return { n: 0, drawn: { blocks: [] } };
}

/** The rows beside the summary, or without it when it would leave room for too few of them. */
function fitBesideSummary(
  count: number,
  draw: (n: number) => RowsDrawn,
  summary: KnownBlock[],
  room: number,
) {
  const beside = fitRows(count, draw, room - jsonLength(summary));
  if (beside.n >= Math.min(count, MIN_ROWS_BESIDE_SUMMARY)) return { ...beside, shownSummary: summary };
  const alone = fitRows(count, draw, room);
  return alone.n > beside.n ? { ...alone, shownSummary: [] } : { ...beside, shownSummary: summary };
}

function nothingText(query: CrawlerListQuery, itemsOnPage: number): Mrkdwn {
  if (itemsOnPage > 0) return mrkdwn`No more rows on this page.`;
  return describeFilters(query)
    ? mrkdwn`Nothing matches these filters.`
    : mrkdwn`Nothing to show in this range.`;
}

const rowsText = (first: number, shown: number, total: number | undefined): Mrkdwn =>
  mrkdwn`Rows ${formatCount(first)}–${formatCount(first + shown - 1)}${total !== undefined ? mrkdwn` of ${formatCount(total)}` : mrkdwn``}`;

export function crawlerListReply(input: CrawlerListInput): Reply {
  const { brand, query, payload } = input;
  const found = findRecordList(payload);
  const paging = findPaging(payload, found?.path);
  const items = found?.items ?? [];
  const offset = Math.max(0, input.place?.offset ?? 0);
  const skip = Math.min(items.length, Math.max(0, input.place?.skip ?? 0));
  const title = listTitle(query, payload);
  const first = offset + skip + 1;

  const top = compact([
    headerBlock(escapeMrkdwn(`${title} · ${brand.name}`)),
    contextBlock(describeRange(query.range, payload['range'], input.today), describeFilters(query)),
  ]);
  const rest = withoutPaths(payload, [...(found ? [found.path] : []), ...paging.paths]);
  const summary = genericPayloadBlocks(rest, 2500, { skipKeys: ECHO_KEYS, maxLines: 20, maxDepth: 2 });
  const left = items.slice(skip);
  // As a table when the rows make one; otherwise a line per row, each with its button.
  const asTable = recordTable(left.slice(0, MAX_ROWS), { minRows: 1, listing: true }) !== undefined;
  const draw = (n: number): RowsDrawn =>
    (asTable
      ? tableOf(brand.id, query, left.slice(0, n), skip, `${title}: ${rowsText(first, n, paging.total)}`)
      : undefined) ?? {
      blocks: left.slice(0, n).map((item, i) => rowBlock(brand.id, query, item, skip + i)),
    };
  const base = { ...query, brandId: brand.id };
  // The More button is sized before the rows, at its largest, so fitting never drops it.
  // Either button it may become: the rest of this page, or the service's next page.
  const reserve =
    Math.max(
      moreRoom({ ...base, cursor: input.place?.cursor }),
      moreRoom({ ...base, cursor: paging.nextCursor }),
    ) + 300;
  const room = MESSAGE_BUDGET - jsonLength(top) - reserve;
  const { n: shown, drawn, shownSummary } = fitBesideSummary(left.length, draw, summary, room);
  const position = shown > 0 ? rowsText(first, shown, paging.total) : undefined;

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
    // A table's caption says which rows it holds; lines are headed by their position.
    ...(position && drawn.text !== undefined
      ? []
      : [position ? sectionBlock(mrkdwn`*${position}*`) : sectionBlock(nothingText(query, items.length))]),
    ...drawn.blocks,
  ];
  // A page with no room for even one row would page in place for ever; an empty page goes on.
  const more = nextValue && (shown > 0 || nextValue.skip === 0) ? moreBlock(nextValue) : undefined;
  if (more) blocks.push(more);
  const sentence = fallbackText(
    mrkdwn`${escapeMrkdwn(`${title} for ${brand.name}`)}: ${position ?? mrkdwn`no rows`}.`,
  );
  return { text: drawn.text ? textWithTable(sentence, drawn.text) : sentence, blocks };
}
