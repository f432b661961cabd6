/**
 * `/visibility ideas`: content ideas ranked by opportunity score, each with its score,
 * type, query, insight, competitors, models and the brand's position, and Previous/Next
 * buttons. A page shows as many ideas as fit one message; Next continues right after the
 * last one shown, so a large `--limit` never skips ideas.
 */

import type { ContentIdea, ContentIdeasResponse, IdeaStatus } from '../../../api/schemas/index.js';
import { figureWords } from '../../../figures/glossary.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDay } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { humanizeCode, ideaTypeName, modelName, pageTypeName } from '../../../messages/vocabulary.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { offsetPagingBlock } from '../../views/paging-buttons.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

export const IDEAS_PAGE_ACTION = 'vis:ideas:page';
export type IdeasStatusFilter = IdeaStatus | 'all';

/** The button value `vis:ideas:page` receives. */
export interface IdeasPageValue {
  brandId: string;
  status: IdeasStatusFilter;
  offset: number;
  limit: number;
}

interface IdeasViewInput {
  brand: { id: string; name: string };
  status: IdeasStatusFilter;
  offset: number;
  limit: number;
  response: ContentIdeasResponse;
  /** A line above the list (e.g. "fresh ideas are ready"). */
  intro?: Mrkdwn;
  /** Serialised size the list may take; the rest of the message is small. */
  budget?: number;
}

const STATUS_WORD: Record<IdeasStatusFilter, Mrkdwn> = {
  active: mrkdwn`Active`,
  dismissed: mrkdwn`Dismissed`,
  implemented: mrkdwn`Implemented`,
  all: mrkdwn`All statuses`,
};

const names = (list: readonly string[], max = 5): Mrkdwn =>
  list.length === 0
    ? mrkdwn`none`
    : mrkdwn`${joinMrkdwn(
        list.slice(0, max).map((n) => inlineText(n, 40)),
        mrkdwn`, `,
      )}${list.length > max ? mrkdwn` +${list.length - max}` : mrkdwn``}`;

function ideaEntry(idea: ContentIdea, rank: number): Mrkdwn {
  const head = mrkdwn`*${rank}. ${inlineText(idea.query, 200)}*`;
  const meta = [
    mrkdwn`${escapeMrkdwn(figureWords('ideaScore'))} *${formatCount(idea.opportunity_score)}*/100`,
    escapeMrkdwn(ideaTypeName(idea.type)),
    idea.status !== 'active' ? mrkdwn`_${inlineText(humanizeCode(idea.status), 20)}_` : undefined,
  ].filter((part): part is Mrkdwn => part !== undefined);
  const dot = mrkdwn`  ·  `;
  const lines = [mrkdwn`${head}${dot}${joinMrkdwn(meta, dot)}`];
  // The `>` of a mrkdwn quote is markup we write: it stays a literal `>`.
  if (idea.insight) lines.push(mrkdwn`> ${inlineText(idea.insight, 400)}`);
  const position =
    typeof idea.your_position === 'number' ? mrkdwn`#${formatCount(idea.your_position)}` : mrkdwn`not ranked`;
  const facts = [
    mrkdwn`Competitors: ${names(idea.competitors_appearing)}`,
    mrkdwn`AI models: ${names(idea.ai_models.map(modelName))}`,
    mrkdwn`Your position: ${position}`,
  ];
  if (idea.recommended_template) {
    facts.push(mrkdwn`Format: ${inlineText(pageTypeName(idea.recommended_template), 40)}`);
  }
  lines.push(joinMrkdwn(facts, dot));
  return truncateMrkdwn(joinMrkdwn(lines, mrkdwn`\n`), 1200);
}

export function ideasReply(input: IdeasViewInput): Reply {
  const { brand, status, response } = input;
  const offset = Math.max(0, input.offset);
  const total = response.pagination.total;
  const brandName = escapeMrkdwn(truncatePlain(brand.name, 100));
  // Ranked by opportunity score (docs/api.md §4.1); sorted again in case a deployment does not.
  const ideas = [...response.ideas].sort((a, b) => b.opportunity_score - a.opportunity_score);
  const meta = response.meta;
  const top = (shown: number) =>
    compact([
      headerBlock(mrkdwn`Content ideas · ${escapeMrkdwn(brand.name)}`),
      input.intro ? sectionBlock(input.intro, 1000) : undefined,
      contextBlock(
        mrkdwn`${STATUS_WORD[status]}, ranked by opportunity score`,
        shown > 0 &&
          mrkdwn`${formatCount(offset + 1)}–${formatCount(offset + shown)} of ${formatCount(total)}`,
        meta?.generated_at ? mrkdwn`generated ${slackDay(meta.generated_at)}` : undefined,
        meta?.generation_status === 'generating' && mrkdwn`:hourglass_flowing_sand: a refresh is running`,
      ),
    ]);
  const base = { brandId: brand.id, status, limit: input.limit };
  const page = { actionPrefix: IDEAS_PAGE_ACTION, base, offset, limit: input.limit, total };
  const paging = (shown: number, measuring = false) => offsetPagingBlock(page, shown, measuring);
  // Measured with every idea shown and both buttons: the real header and buttons can only be smaller.
  const room = Math.min(
    input.budget ?? Number.POSITIVE_INFINITY,
    roomLeft([...top(ideas.length), paging(ideas.length, true)]),
  );
  const { kept } = takeLinesWithin(
    ideas.map((idea, i) => mrkdwn`${ideaEntry(idea, offset + i + 1)}\n`),
    room,
  );
  const shown = kept.length;

  const blocks: KnownBlock[] = top(shown);
  if (shown === 0) {
    const what = status === 'all' ? mrkdwn`content ideas` : mrkdwn`${escapeMrkdwn(status)} content ideas`;
    const hint =
      offset > 0 && total > 0
        ? mrkdwn`That is past the last one; go back a page.`
        : mrkdwn`Try \`/visibility ideas "${brandName}" all\`, or \`refresh\` to generate new ones.`;
    blocks.push(sectionBlock(mrkdwn`No ${what} for *${brandName}*. ${hint}`));
  } else {
    blocks.push(...chunkSections(kept));
  }
  const buttons = paging(shown);
  if (buttons) blocks.push(buttons);

  const textList = ideas
    .slice(0, Math.min(shown, 5))
    .map((idea, i) => `${offset + i + 1}. ${truncatePlain(idea.query, 80)} (${idea.opportunity_score})`)
    .join('; ');
  const text =
    shown === 0
      ? `No ${status === 'all' ? '' : `${status} `}content ideas for ${brand.name}.`
      : `Content ideas for ${brand.name} (${STATUS_WORD[status].toLowerCase()}), ${offset + 1}–${offset + shown} of ${total}: ${textList}`;
  // The notification text: queries and the brand name come from the service, escaped.
  return { text: fallbackText(escapeMrkdwn(text)), blocks };
}
