/**
 * `/visibility markets <brand>` and the replies of its changes. The markets are Slack's own
 * table (a row each: country, code, primary, tracking, name, the day it was added); on a
 * brand the key may edit, each market that can be removed gets a Remove button under the
 * table, naming it, whose Slack `confirm` dialog asks first (only the confirmed click sends
 * the DELETE). The primary market never gets one: docs/api.md §3 forbids removing it.
 */
import type { Brand, Market } from '../../../api/schemas/index.js';
import { countryLabel, countryName } from '../../../countries.js';
import { dayText } from '../../../figures/day-text.js';
import { countText } from '../../../figures/number-text.js';
import { counted } from '../../../figures/plural.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../../messages/block-kit-types.js';
import type { NativeTable } from '../../../messages/data-table.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { canEditBrand } from '../../kit/permissions.js';
import { brandButton } from '../../views/brand-button.js';
import { brandName } from '../../views/brand-name.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { nativeTable, type TableModel, type TableValue } from '../../views/table-model.js';
import { textWithTable } from '../../views/tables-as-text.js';
import { jsonLength, roomLeft } from '../../views/take-lines-within.js';
import { EDIT_LOCATION_ACTION } from '../location/edit-location-button.js';
import { sortMarkets } from './market-line.js';

export const MARKET_ACTIONS = {
  remove: 'vis:markets:remove',
  add: 'vis:markets:add',
} as const;

/** Value of the Remove button; `location` lets the reply name the market once it is gone. */
interface RemoveMarketValue {
  brandId: string;
  marketId: string;
  location: string;
}

/** docs/api.md §3: the primary market cannot be removed; it must first be changed. */
export function primaryMarketRefusal(brand: Pick<Brand, 'name'>, location: string): Mrkdwn {
  const name = brandName(brand.name);
  return mrkdwn`*${escapeMrkdwn(countryLabel(location))}* is the primary market of *${name}*, and the service does not allow removing a brand's primary market. To stop tracking it, change the primary location to another country first: \`/visibility location "${name}" &lt;country&gt;\` moves the primary market there.`;
}

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });

function removeMarketButton(brand: Pick<Brand, 'id' | 'name'>, market: Market): Button {
  const label = countryLabel(market.location);
  const value: RemoveMarketValue = { brandId: brand.id, marketId: market.id, location: market.location };
  return brandButton(
    mrkdwn`Remove ${escapeMrkdwn(label)}`,
    MARKET_ACTIONS.remove,
    { ...value },
    {
      style: 'danger',
      confirm: {
        title: mrkdwn`Remove this market?`,
        text: truncateMrkdwn(
          mrkdwn`Remove *${escapeMrkdwn(label)}* from *${brandName(brand.name)}*? Visibility tracking for that market stops.`,
          L.confirmText,
        ),
        confirm: mrkdwn`Remove`,
        deny: mrkdwn`Keep it`,
      },
    },
  );
}

function primaryHint(brand: Pick<Brand, 'name'>): Mrkdwn {
  return mrkdwn`To use another country as primary, change the primary location first: \`/visibility location "${brandName(brand.name)}" &lt;country&gt;\`.`;
}

/** Rows a table shows at once; Slack pages through the rest. */
const PAGE_SIZE = 10;
/** Remove buttons under the table, this many to a row of buttons. */
const BUTTONS_PER_ROW = 5;
/** Past this many, the rest are removed by typing: the buttons would crowd out the table. */
const MAX_REMOVE_BUTTONS = 25;

/** The day a market was added, sortable; "—" when the service does not say. */
function addedValue(m: Market): TableValue {
  const ms = m.created_at ? Date.parse(m.created_at) : Number.NaN;
  return Number.isFinite(ms)
    ? { number: ms, text: dayText(m.created_at!) }
    : { number: Number.NaN, text: '—' };
}

/**
 * The markets as a table: a row per market, the country first. The primary market is
 * starred, as `brand` stars it; the names column is there only when a market has a name
 * (a column of dashes tells the reader nothing).
 */
function marketsTable(markets: readonly Market[]): TableModel {
  const named = markets.some((m) => m.market_name?.trim());
  return {
    columns: [
      { label: 'Country' },
      { label: 'Code' },
      { label: 'Primary' },
      { label: 'Tracking' },
      ...(named ? [{ label: 'Market name' }] : []),
      { label: 'Added', align: 'right' as const },
    ],
    rows: markets.map((m) => [
      countryName(m.location),
      m.location.toUpperCase(),
      m.is_primary ? '⭐' : '—',
      m.active === false ? 'Paused' : 'On',
      ...(named ? [m.market_name?.trim() || '—'] : []),
      addedValue(m),
    ]),
  };
}

/** The most markets (primary first) whose table fits `room` serialised characters. */
function fittedMarketsTable(markets: readonly Market[], room: number): NativeTable | undefined {
  for (let n = markets.length; n > 0; n = n > 10 ? Math.floor(n * 0.8) : n - 1) {
    const total = countText(markets.length);
    const caption = n < markets.length ? `Markets (${total}), the first ${n}` : `Markets (${total})`;
    const table = nativeTable(marketsTable(markets.slice(0, n)), { caption, pageSize: PAGE_SIZE });
    if (table.block && jsonLength(table.block) <= room) return table;
  }
  return undefined;
}

/**
 * A Remove button per market shown that may be removed, in rows of buttons under the table,
 * each naming its market, as many as fit `room`; the index keeps action_ids apart in a row.
 */
function removeButtonRows(
  brand: Pick<Brand, 'id' | 'name'>,
  shown: readonly Market[],
  room: number,
): { blocks: KnownBlock[]; buttons: number } {
  const buttons: Button[] = [];
  let used = 0;
  for (const [i, m] of shown.filter((x) => !x.is_primary).entries()) {
    const button = { ...removeMarketButton(brand, m), action_id: `${MARKET_ACTIONS.remove}:${i}` };
    // A button's JSON, and an actions block's wrapper for every fifth.
    const size = jsonLength(button) + 1 + (i % BUTTONS_PER_ROW === 0 ? 40 : 0);
    if (i >= MAX_REMOVE_BUTTONS || used + size > room) break;
    buttons.push(button);
    used += size;
  }
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < buttons.length; i += BUTTONS_PER_ROW)
    blocks.push({ type: 'actions', elements: buttons.slice(i, i + BUTTONS_PER_ROW) });
  return { blocks, buttons: buttons.length };
}

function marketsFooter(brand: Brand, editable: boolean, commandText: string): KnownBlock[] {
  const footer: KnownBlock[] = [];
  if (editable) {
    footer.push({
      type: 'actions',
      block_id: 'vis:markets:actions',
      elements: [
        brandButton(mrkdwn`Add market`, MARKET_ACTIONS.add, { brandId: brand.id }, { style: 'primary' }),
        brandButton(mrkdwn`Set primary location`, EDIT_LOCATION_ACTION, { brandId: brand.id }),
      ],
    });
  }
  footer.push({
    type: 'context',
    elements: [
      md(
        editable
          ? truncateMrkdwn(primaryHint(brand), 1000)
          : mrkdwn`Read-only: the API key has the viewer role on this brand; an owner or editor can change its markets.`,
      ),
    ],
  });
  footer.push(shareActionsBlock(commandText));
  return footer;
}

/** "Acme: 4 markets: US (primary), DE, CA, GB": what notifications show. */
function marketsSentence(brand: Brand, markets: readonly Market[]): Mrkdwn {
  const list =
    markets.map((m) => `${m.location}${m.is_primary ? ' (primary)' : ''}`).join(', ') || 'none (global mode)';
  return escapeMrkdwn(`${brand.name}: ${counted(markets.length, 'market')}: ${list}`);
}

/**
 * The markets as Slack's own table (sortable by when each was added), the Remove buttons
 * under it on a brand the key may edit; the table's rows are also the reply's text.
 */
export function marketsReply(brand: Brand, commandText = `markets ${brand.id}`): Reply {
  const markets = sortMarkets(brand.markets ?? []);
  const editable = canEditBrand(brand);
  const header: KnownBlock = {
    type: 'header',
    text: {
      type: 'plain_text',
      text: truncatePlain(escapeMrkdwn(`Markets of ${brand.name} (${markets.length})`), L.headerText),
      emoji: true,
    },
  };
  const intro: KnownBlock = {
    type: 'section',
    text: md(
      markets.length === 0
        ? mrkdwn`*${brandName(brand.name)}* has no markets: it runs in global mode, which can skew its competitor set toward US results. The first market added becomes the primary market.`
        : mrkdwn`Geographic markets tracked for *${brandName(brand.name)}*. The primary market cannot be removed.`,
    ),
  };
  const typeToRemove: KnownBlock = {
    type: 'context',
    elements: [
      md(
        mrkdwn`Remove any other market by typing \`/visibility markets "${brandName(brand.name)}" remove &lt;country&gt;\`.`,
      ),
    ],
  };
  const footer = marketsFooter(brand, editable, commandText);
  // The table first; the Remove buttons get the room it leaves.
  let room = roomLeft([header, intro, ...footer, typeToRemove]);
  const table = fittedMarketsTable(markets, room);
  const body: KnownBlock[] = table?.block ? [table.block] : [];
  room -= jsonLength(body);
  const shown = markets.slice(0, table ? table.block!.rows.length - 1 : 0);
  if (editable) {
    const removes = removeButtonRows(brand, shown, room);
    body.push(...removes.blocks);
    if (removes.buttons < markets.filter((m) => !m.is_primary).length) body.push(typeToRemove);
  }
  const sentence = truncatePlain(marketsSentence(brand, markets), L.fallbackText);
  return {
    text: table ? textWithTable(sentence, table.text) : sentence,
    blocks: [header, intro, ...body, ...footer],
  };
}

/** `markets <brand> remove <country>`: nothing is removed until the confirmed click. */
export function confirmRemoveMarketReply(brand: Pick<Brand, 'id' | 'name'>, market: Market): Reply {
  const label = countryLabel(market.location);
  const text = mrkdwn`Remove the market *${escapeMrkdwn(label)}* from *${brandName(brand.name)}*? Press the button and confirm; nothing changes until then.`;
  return {
    text: truncateMrkdwn(text, L.fallbackText),
    blocks: [
      {
        type: 'section',
        block_id: 'vis:markets:confirm',
        text: md(truncateMrkdwn(text, L.sectionText)),
        accessory: removeMarketButton(brand, market),
      },
    ],
  };
}

export function marketAddedReply(brand: Pick<Brand, 'id' | 'name'>, market: Market): Reply {
  const label = escapeMrkdwn(countryLabel(market.location));
  const primary = market.is_primary
    ? mrkdwn` It is the brand’s first market, so it became the *primary market*.`
    : mrkdwn``;
  const name = market.market_name
    ? mrkdwn` as _${escapeMrkdwn(truncatePlain(market.market_name, 100))}_`
    : mrkdwn``;
  const text = mrkdwn`:white_check_mark: Added the market *${label}*${name} to *${brandName(brand.name)}*.${primary}`;
  return {
    text: truncateMrkdwn(text, L.fallbackText),
    blocks: [
      { type: 'section', text: md(truncateMrkdwn(text, L.sectionText)) },
      {
        type: 'actions',
        block_id: 'vis:markets:after',
        elements: [brandButton(mrkdwn`All markets`, 'vis:open:markets', { brandId: brand.id })],
      },
    ],
  };
}

export function marketRemovedReply(brand: Pick<Brand, 'name'>, location: string): Reply {
  const text = mrkdwn`:wastebasket: Removed the market *${escapeMrkdwn(countryLabel(location))}* from *${brandName(brand.name)}*.`;
  return {
    text: truncateMrkdwn(text, L.fallbackText),
    blocks: [{ type: 'section', text: md(truncateMrkdwn(text, L.sectionText)) }],
  };
}
