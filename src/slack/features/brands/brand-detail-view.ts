/**
 * `/visibility brand <brand>`: one brand in full (role, website, primary market or the
 * global-mode caveat, every market, every alias) with buttons into the other views and,
 * when the key may edit the brand, into the modals that change it.
 */
import type { Brand } from '../../../api/schemas/index.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { canEditBrand } from '../../kit/permissions.js';
import { brandButton } from '../../views/brand-button.js';
import { linesWithMore } from '../../views/lines-with-more.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { shrinkUntilFits } from '../../views/shrink-until-fits.js';
import { EDIT_LOCATION_ACTION } from '../location/edit-location-button.js';
import { marketLine, sortMarkets } from '../markets/market-line.js';
import { primaryMarketText, websiteLink } from './brand-list-view.js';

export const BRAND_VIEW_BUTTONS = [
  { actionId: 'vis:open:markets', label: mrkdwn`Markets` },
  { actionId: 'vis:open:aliases', label: mrkdwn`Aliases` },
  { actionId: 'vis:open:citations', label: mrkdwn`Citations` },
  { actionId: 'vis:open:crawler', label: mrkdwn`Crawler` },
  { actionId: 'vis:open:ideas', label: mrkdwn`Content ideas` },
  { actionId: 'vis:open:aipages', label: mrkdwn`AI Pages` },
] as const;

const BRAND_EDIT_BUTTONS = [
  { actionId: 'vis:markets:add', label: mrkdwn`Add market` },
  { actionId: EDIT_LOCATION_ACTION, label: mrkdwn`Set primary location` },
  { actionId: 'vis:aliases:edit', label: mrkdwn`Edit aliases` },
] as const;

/** The markets and aliases sections share what is left of the 12 k budget. */
const LIST_SECTION_MAX = 2500;

function build(brand: Brand, commandText: string, room: number): Reply {
  const markets = sortMarkets(brand.markets ?? []);
  const aliases = brand.aliases ?? [];
  const editable = canEditBrand(brand);
  const summary = [
    mrkdwn`*Role:* ${escapeMrkdwn(brand.role)}${brand.active ? mrkdwn`` : mrkdwn`  ·  _inactive_`}`,
    websiteLink(brand.website),
    truncateMrkdwn(primaryMarketText(brand), Math.min(1000, room)),
  ].filter((line): line is Mrkdwn => Boolean(line));

  const marketText =
    markets.length === 0
      ? mrkdwn`*Markets:* none yet.`
      : mrkdwn`*Markets (${markets.length})*\n${linesWithMore(
          markets.map((m) => mrkdwn`• ${marketLine(m)}`),
          room,
          (n) => mrkdwn`…and ${n} more: see the Markets view`,
        )}`;
  const aliasText =
    aliases.length === 0
      ? mrkdwn`*Aliases:* none. Aliases are other names of the brand, folded into its visibility score.`
      : mrkdwn`*Aliases (${aliases.length})*\n${linesWithMore(
          aliases.map((a) => mrkdwn`• ${escapeMrkdwn(truncatePlain(a, 200))}`),
          room,
          (n) => mrkdwn`…and ${n} more: see the Aliases view`,
        )}`;

  const value = { brandId: brand.id };
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: truncatePlain(escapeMrkdwn(brand.name), L.headerText), emoji: true },
    },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: truncateMrkdwn(joinMrkdwn(summary, mrkdwn`\n`), L.sectionText) },
    },
    { type: 'section', text: { type: 'mrkdwn', text: marketText } },
    { type: 'section', text: { type: 'mrkdwn', text: aliasText } },
    {
      type: 'actions',
      block_id: 'vis:brand:views',
      elements: BRAND_VIEW_BUTTONS.map((b) => brandButton(b.label, b.actionId, value)),
    },
  ];
  if (editable) {
    blocks.push({
      type: 'actions',
      block_id: 'vis:brand:edit',
      elements: BRAND_EDIT_BUTTONS.map((b) => brandButton(b.label, b.actionId, value)),
    });
  } else {
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: mrkdwn`Read-only: the API key has the viewer role on this brand, so markets, location and aliases can only be changed by an owner or editor.`,
        },
      ],
    });
  }
  blocks.push(shareActionsBlock(commandText));

  const text = [
    `${brand.name} (${brand.role})`,
    brand.location ? `primary market ${brand.location}` : 'global mode',
    `${markets.length} market${markets.length === 1 ? mrkdwn`` : mrkdwn`s`}: ${markets.map((m) => m.location).join(', ') || 'none'}`,
    `aliases: ${aliases.join(', ') || 'none'}`,
  ].join('; ');
  return { text: truncatePlain(escapeMrkdwn(text), L.fallbackText), blocks };
}

export function brandDetailReply(brand: Brand, commandText = `brand ${brand.id}`): Reply {
  return shrinkUntilFits((room) => build(brand, commandText, room), LIST_SECTION_MAX);
}
