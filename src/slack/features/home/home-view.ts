/**
 * The App Home tab: every brand at a glance (name, role, primary market or global mode,
 * AI Pages usage as a small bar or why there is none) with buttons into the views. Pure:
 * glances in, a Home view out, within the 100-block limit (past what fits, brands are
 * listed by name).
 */
import type { Brand } from '../../../api/schemas/index.js';
import { countryLabel } from '../../../countries.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { HomeView, KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { brandButton } from '../../views/brand-button.js';
import { linesWithMore } from '../../views/lines-with-more.js';
import { progressBar } from '../../views/progress-bar.js';

export type AiPagesGlance =
  | { status: 'ok'; enabled: boolean; percentageUsed: number | null; resetDate: string | null }
  | { status: 'not_included' }
  | { status: 'not_set_up' }
  | { status: 'unavailable' }
  /** Not asked: past the brands the Home shows in detail. */
  | { status: 'not_loaded' };

export interface BrandGlance {
  brand: Brand;
  aiPages: AiPagesGlance;
}

export const HOME_BUTTONS = [
  { actionId: 'vis:open:brand', label: mrkdwn`Details` },
  { actionId: 'vis:open:markets', label: mrkdwn`Markets` },
  { actionId: 'vis:open:citations', label: mrkdwn`Citations` },
  { actionId: 'vis:open:crawler', label: mrkdwn`Crawler` },
  { actionId: 'vis:open:aipages', label: mrkdwn`AI Pages` },
] as const;

/** Two blocks per brand; header, intro, the name-only list and the footer take the rest of 100. */
export const HOME_MAX_DETAILED = 45;

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });

function where(b: Brand): Mrkdwn {
  if (!b.location) return mrkdwn`:globe_with_meridians: Global mode (no primary market)`;
  const place = [b.location_region, b.location_city]
    .filter((p): p is string => Boolean(p))
    .map((p) => escapeMrkdwn(truncatePlain(p, 60)));
  const more = place.length ? mrkdwn`, ${joinMrkdwn(place, mrkdwn`, `)}` : mrkdwn``;
  return mrkdwn`:round_pushpin: ${escapeMrkdwn(countryLabel(b.location))}${more}`;
}

export function aiPagesText(a: AiPagesGlance): Mrkdwn {
  switch (a.status) {
    case 'ok': {
      const off = a.enabled ? mrkdwn`` : mrkdwn` · _disabled_`;
      if (a.percentageUsed === null) return mrkdwn`AI Pages: no usage yet${off}`;
      return mrkdwn`AI Pages: \`${progressBar(a.percentageUsed)}\` of this month's requests${off}`;
    }
    case 'not_included':
      return mrkdwn`AI Pages: not included in the plan`;
    case 'not_set_up':
      return mrkdwn`AI Pages: not set up`;
    case 'unavailable':
      return mrkdwn`AI Pages: usage unavailable right now`;
    case 'not_loaded':
      return mrkdwn``;
  }
}

function brandBlocks(g: BrandGlance): KnownBlock[] {
  const b = g.brand;
  const title = mrkdwn`*${escapeMrkdwn(truncatePlain(b.name, 200))}*  ·  ${escapeMrkdwn(b.role)}${b.active ? mrkdwn`` : mrkdwn`  ·  _inactive_`}`;
  const lines = [title, where(b), aiPagesText(g.aiPages)].filter((l) => l !== '');
  const value = { brandId: b.id };
  return [
    { type: 'section', text: md(truncateMrkdwn(joinMrkdwn(lines, mrkdwn`\n`), L.sectionText)) },
    {
      type: 'actions',
      block_id: `vis:home:${b.id}`.slice(0, L.blockId),
      elements: HOME_BUTTONS.map((x) => brandButton(x.label, x.actionId, value)),
    },
  ];
}

/** Active brands first, then by name: the order of the tab (and of the brands whose usage is loaded). */
export function sortForHome<T extends Pick<Brand, 'active' | 'name'>>(brands: readonly T[]): T[] {
  return [...brands].sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
}

export function brandsHomeView(glances: readonly BrandGlance[], nowMs: number): HomeView {
  const order = new Map(sortForHome(glances.map((g) => g.brand)).map((b, i) => [b, i]));
  const sorted = [...glances].sort((a, b) => order.get(a.brand)! - order.get(b.brand)!);
  const detailed = sorted.slice(0, HOME_MAX_DETAILED);
  const rest = sorted.slice(HOME_MAX_DETAILED);
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: mrkdwn`Brand Visibility: ${glances.length} brand${glances.length === 1 ? mrkdwn`` : mrkdwn`s`}`,
      },
    },
    {
      type: 'context',
      elements: [
        md(
          mrkdwn`Updated ${slackDate(nowMs)}, each time you open this tab. Type \`/visibility help\` for every command.`,
        ),
      ],
    },
  ];
  if (glances.length === 0) {
    blocks.push({
      type: 'section',
      text: md(
        mrkdwn`The API key sees no brands yet. Brands appear here once the key’s user owns or is invited to one.`,
      ),
    });
  }
  for (const g of detailed) blocks.push(...brandBlocks(g));
  if (rest.length > 0) {
    blocks.push({
      type: 'section',
      text: md(
        linesWithMore(
          [
            mrkdwn`*Also (${rest.length}):*`,
            ...rest.map((g) => mrkdwn`• ${escapeMrkdwn(truncatePlain(g.brand.name, 200))}`),
          ],
          L.sectionText,
        ),
      ),
    });
  }
  return { type: 'home', blocks };
}

/** Guests and failures get a short, polite page instead of a blank tab. */
export function noticeHomeView(text: Mrkdwn): HomeView {
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: mrkdwn`Brand Visibility` } },
      { type: 'section', text: md(truncateMrkdwn(text, L.sectionText)) },
    ],
  };
}
