/**
 * `/visibility brands`: one section per brand (name, role, website, primary market or the
 * global-mode caveat, active flag) with a row of buttons. Past what fits one message the
 * rest are listed by name only, so nobody loses a brand to the 50-block limit.
 */
import type { Brand } from '../../../api/schemas/index.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, safeLinkUrl } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { linkOrText } from '../../views/link-or-text.js';

/** Two blocks per brand: 22 brands + header + the overflow list stay under 50 blocks. */
const MAX_DETAILED = 22;

export const GLOBAL_MODE_CAVEAT = mrkdwn`Global mode: no primary market, so its competitor set can skew toward US results.`;

export const BRAND_BUTTONS = [
  { actionId: 'vis:open:brand', label: mrkdwn`Details` },
  { actionId: 'vis:open:citations', label: mrkdwn`Citations` },
  { actionId: 'vis:open:crawler', label: mrkdwn`Crawler` },
  { actionId: 'vis:open:ideas', label: mrkdwn`Content ideas` },
] as const;

/**
 * A brand's website as a link labelled with its host (a bare host gets https://), or as
 * its text when it cannot safely be one (not a URL, a user name or password before the
 * host); the brand list and the brand's details show it alike.
 */
export function websiteLink(website: string | null | undefined): Mrkdwn | undefined {
  if (!website) return undefined;
  const asText = escapeMrkdwn(truncatePlain(website, 200));
  try {
    const url = new URL(website.includes('://') ? website : `https://${website}`);
    return safeLinkUrl(url.href) === undefined ? asText : linkOrText(url.href, url.host, 200);
  } catch {
    return asText;
  }
}

export function primaryMarketText(b: Brand): Mrkdwn {
  if (!b.location) return mrkdwn`:globe_with_meridians: ${GLOBAL_MODE_CAVEAT}`;
  const place = [b.location_region, b.location_city].filter(Boolean).map((p) => escapeMrkdwn(String(p)));
  const where = place.length ? mrkdwn` (${joinMrkdwn(place, mrkdwn`, `)})` : mrkdwn``;
  return mrkdwn`Primary market: *${escapeMrkdwn(b.location)}*${where}`;
}

function brandBlocks(b: Brand): KnownBlock[] {
  const title = joinMrkdwn(
    [
      mrkdwn`*${escapeMrkdwn(b.name)}*`,
      escapeMrkdwn(b.role),
      b.active ? undefined : mrkdwn`_inactive_`,
    ].filter((part): part is Mrkdwn => part !== undefined),
    mrkdwn`  ·  `,
  );
  const lines = [title, websiteLink(b.website), primaryMarketText(b)].filter(
    (line): line is Mrkdwn => line !== undefined,
  );
  const value = JSON.stringify({ brandId: b.id });
  return [
    { type: 'section', text: { type: 'mrkdwn', text: joinMrkdwn(lines, mrkdwn`\n`) } },
    {
      type: 'actions',
      block_id: `brand:${b.id}`,
      elements: BRAND_BUTTONS.map((btn) => ({
        type: 'button' as const,
        action_id: btn.actionId,
        text: { type: 'plain_text' as const, text: btn.label },
        value,
      })),
    },
  ];
}

export function brandListReply(brands: readonly Brand[]): Reply {
  if (brands.length === 0) {
    const text = mrkdwn`The API key sees no brands. Brands appear here once the key’s user owns or is invited to one.`;
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
  }
  const sorted = [...brands].sort(
    (a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name),
  );
  const detailed = sorted.length > MAX_DETAILED + 1 ? sorted.slice(0, MAX_DETAILED) : sorted;
  const rest = sorted.slice(detailed.length);
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: mrkdwn`Brands (${brands.length})` } },
    ...detailed.flatMap(brandBlocks),
  ];
  if (rest.length > 0) {
    blocks.push(
      ...chunkSections([
        mrkdwn`*Also:* ${joinMrkdwn(
          rest.map((b) => escapeMrkdwn(b.name)),
          mrkdwn`, `,
        )}`,
        mrkdwn`_Name one in any brand command to see it._`,
      ]),
    );
  }
  const summary = sorted
    .map((b) => `${b.name} (${b.role}${b.location ? `, ${b.location}` : ', global mode'})`)
    .join('; ');
  return {
    text: truncatePlain(
      mrkdwn`${brands.length} brand${brands.length === 1 ? mrkdwn`` : mrkdwn`s`}: ${escapeMrkdwn(summary)}`,
      4000,
    ),
    blocks,
  };
}
