/**
 * `/visibility markets <brand>` and the replies of its changes. Each market is a line; on
 * a brand the key may edit, the markets that can be removed get a Remove button whose
 * Slack `confirm` dialog asks first (only the confirmed click sends the DELETE). The
 * primary market never gets one: docs/api.md §3 forbids removing it.
 */
import type { Brand, Market } from '../../../api/schemas/index.js';
import { countryLabel } from '../../../countries.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { Button, KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { canEditBrand } from '../../kit/permissions.js';
import { BlockBudget } from '../../views/block-budget.js';
import { brandButton } from '../../views/brand-button.js';
import { brandName } from '../../views/brand-name.js';
import { linesWithMore } from '../../views/lines-with-more.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { EDIT_LOCATION_ACTION } from '../location/edit-location-button.js';
import { marketLine, sortMarkets } from './market-line.js';

export const MARKET_ACTIONS = {
  remove: 'vis:markets:remove',
  add: 'vis:markets:add',
} as const;

/** Value of the Remove button; `location` lets the reply name the market once it is gone. */
export interface RemoveMarketValue {
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

export function removeMarketButton(brand: Pick<Brand, 'id' | 'name'>, market: Market): Button {
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

  const budget = new BlockBudget([header, intro, ...footer]);
  const body: KnownBlock[] = [];
  let shown = 0;
  // One section per market while they fit (with its Remove button), then the rest as lines.
  for (const m of markets) {
    const accessory = editable && !m.is_primary ? removeMarketButton(brand, m) : undefined;
    const block: KnownBlock = {
      type: 'section',
      text: md(marketLine(m)),
      ...(accessory ? { accessory } : {}),
    };
    if (!budget.add(body, block)) break;
    shown += 1;
  }
  if (shown < markets.length) {
    const rest = markets.slice(shown).map((m) => mrkdwn`• ${marketLine(m)}`);
    const room = budget.textRoom();
    if (room > 200) {
      const removeHint = editable
        ? mrkdwn` (remove one with \`/visibility markets &lt;brand&gt; remove &lt;country&gt;\`)`
        : mrkdwn``;
      budget.add(body, {
        type: 'section',
        text: md(linesWithMore(rest, room, (n) => mrkdwn`…and ${n} more not shown${removeHint}`)),
      });
    }
  }

  const text = `${brand.name}: ${markets.length} market${markets.length === 1 ? mrkdwn`` : mrkdwn`s`}: ${
    markets.map((m) => `${m.location}${m.is_primary ? mrkdwn` (primary)` : mrkdwn``}`).join(', ') ||
    'none (global mode)'
  }`;
  return {
    text: truncatePlain(escapeMrkdwn(text), L.fallbackText),
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
