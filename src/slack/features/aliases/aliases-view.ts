/** `/visibility aliases <brand>` and the reply after a change. */
import type { Brand } from '../../../api/schemas/index.js';
import { BLOCK_KIT_LIMITS as L } from '../../../messages/block-kit-limit-table.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { canEditBrand } from '../../kit/permissions.js';
import { brandButton } from '../../views/brand-button.js';
import { brandName } from '../../views/brand-name.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { linesWithMore } from '../../views/lines-with-more.js';
import { shareActionsBlock } from '../../views/share-button.js';
import { shrinkUntilFits } from '../../views/shrink-until-fits.js';

export const EDIT_ALIASES_ACTION = 'vis:aliases:edit';
const WHAT_ALIASES_ARE = mrkdwn`Aliases are other names of the brand; mentions under them count toward its visibility score.`;
/** Aliases are listed in one section; a list longer than this ends in "…and N more". */
const LIST_MAX = 6000;

const md = (text: Mrkdwn) => ({ type: 'mrkdwn' as const, text });
const bullet = (a: string) => mrkdwn`• ${escapeMrkdwn(truncatePlain(a, 300))}`;

function buildAliases(
  brand: Pick<Brand, 'id' | 'name' | 'role'>,
  aliases: readonly string[],
  commandText: string,
  room: number,
): Reply {
  const editable = canEditBrand(brand);
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncatePlain(escapeMrkdwn(`Aliases of ${brand.name} (${aliases.length})`), L.headerText),
        emoji: true,
      },
    },
  ];
  if (aliases.length === 0)
    blocks.push({ type: 'section', text: md(mrkdwn`No aliases yet. ${WHAT_ALIASES_ARE}`) });
  else {
    const list = linesWithMore(aliases.map(bullet), room, (n) => mrkdwn`…and ${n} more not shown`);
    blocks.push(...chunkSections([list]));
  }
  blocks.push({
    type: 'context',
    elements: [
      md(
        editable
          ? mrkdwn`${WHAT_ALIASES_ARE} Change them with the button or \`/visibility aliases &lt;brand&gt; add|remove|set …\`.`
          : mrkdwn`${WHAT_ALIASES_ARE} Read-only: the API key has the viewer role on this brand.`,
      ),
    ],
  });
  if (editable) {
    blocks.push({
      type: 'actions',
      block_id: 'vis:aliases:actions',
      elements: [brandButton(mrkdwn`Edit aliases`, EDIT_ALIASES_ACTION, { brandId: brand.id })],
    });
  }
  blocks.push(shareActionsBlock(commandText));
  const text = `${brand.name}: ${aliases.length} alias${aliases.length === 1 ? mrkdwn`` : mrkdwn`es`}: ${aliases.join(', ') || 'none'}`;
  return { text: truncateMrkdwn(escapeMrkdwn(text), L.fallbackText), blocks };
}

export function aliasesReply(
  brand: Pick<Brand, 'id' | 'name' | 'role'>,
  aliases: readonly string[],
  commandText = `aliases ${brand.id}`,
): Reply {
  return shrinkUntilFits((room) => buildAliases(brand, aliases, commandText, room), LIST_MAX);
}

interface AliasChange {
  added: readonly string[];
  removed: readonly string[];
}

export function aliasesChangedReply(name: string, aliases: readonly string[], change: AliasChange): Reply {
  const parts: Mrkdwn[] = [];
  const list = (xs: readonly string[]) =>
    joinMrkdwn(
      xs.map((a) => mrkdwn`*${escapeMrkdwn(truncatePlain(a, 200))}*`),
      mrkdwn`, `,
    );
  if (change.added.length > 0) parts.push(mrkdwn`added ${list(change.added)}`);
  if (change.removed.length > 0) parts.push(mrkdwn`removed ${list(change.removed)}`);
  const what = parts.length ? mrkdwn`: ${joinMrkdwn(parts, mrkdwn`; `)}` : mrkdwn``;
  const head = mrkdwn`:label: Aliases of *${brandName(name)}* updated${what}.`;
  const now =
    aliases.length === 0
      ? mrkdwn`It has no aliases now.`
      : // Quoted, so a stored name that has a comma reads as one name.
        mrkdwn`Now (${aliases.length}): ${joinMrkdwn(
          aliases.map((a) => mrkdwn`“${escapeMrkdwn(truncatePlain(a, 200))}”`),
          mrkdwn`, `,
        )}`;
  const text = truncateMrkdwn(mrkdwn`${head}\n${now}`, L.sectionText);
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}
