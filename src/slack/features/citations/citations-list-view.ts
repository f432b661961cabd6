/**
 * `/visibility citations <brand> [list]`: the cited pages (URLs AI models cite), each with
 * its title, prompt, citations (how often it is cited: the service's `appearances`),
 * sentiment, visibility score, domain rating, model and date, paged
 * with Previous/Next (`vis:citations:page`). Like the ideas list, a page shows what fits and
 * Next continues after the last citation shown.
 */

import type { Citation, CitationListResponse } from '../../../api/schemas/index.js';
import { countFigure, figureName } from '../../../figures/glossary.js';
import { counted } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount } from '../../../messages/format-number.js';
import {
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  slackDay,
  trimMrkdwn,
} from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import { truncateMrkdwn, truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { intentName, modelName } from '../../../messages/vocabulary.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import { offsetPagingBlock } from '../../views/paging-buttons.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

export const CITATIONS_PAGE_ACTION = 'vis:citations:page';

/** The list counts pages, each once (`pagination.total`); how often each is cited is its citations. */
const PAGES = escapeMrkdwn(figureName('citedPages'));

export interface CitationListFilters {
  domain?: string | undefined;
  prompt?: string | undefined;
  tags?: string[] | undefined;
}

/** The button value `vis:citations:page` receives. */
export interface CitationsPageValue extends CitationListFilters {
  brandId: string;
  offset: number;
  limit: number;
}

interface CitationsListInput {
  brand: { id: string; name: string };
  filters: CitationListFilters;
  offset: number;
  limit: number;
  response: CitationListResponse;
  budget?: number;
}

const SENTIMENT_ICON: Record<string, Mrkdwn> = {
  positive: mrkdwn`:large_green_circle:`,
  neutral: mrkdwn`:white_circle:`,
  negative: mrkdwn`:red_circle:`,
};

function citationEntry(c: Citation, rank: number): Mrkdwn {
  const head = mrkdwn`*${rank}.* ${linkOrText(c.url, c.page_title, 100)}  ·  ${inlineText(c.domain, 80)}`;
  const prompt = mrkdwn`Prompt: “${inlineText(c.prompt.text, 160)}”${c.prompt.type ? mrkdwn` (${inlineText(intentName(c.prompt.type), 30)})` : mrkdwn``}`;
  const sentiment = c.metrics.sentiment
    ? trimMrkdwn(
        mrkdwn`${ownLookup(SENTIMENT_ICON, c.metrics.sentiment) ?? mrkdwn``} ${inlineText(c.metrics.sentiment, 20)}`,
      )
    : undefined;
  const facts = [
    escapeMrkdwn(countFigure('citations', c.metrics.appearances)),
    sentiment,
    typeof c.metrics.visibility_score === 'number'
      ? mrkdwn`visibility ${formatCount(c.metrics.visibility_score)}/100`
      : undefined,
    typeof c.seo?.domain_rating === 'number'
      ? mrkdwn`domain rating ${formatCount(c.seo.domain_rating)}`
      : undefined,
    c.search_model ? inlineText(modelName(c.search_model), 40) : undefined,
    slackDay(c.date),
  ].filter((f): f is Mrkdwn => Boolean(f));
  return truncateMrkdwn(mrkdwn`${head}\n${prompt}\n${joinMrkdwn(facts, mrkdwn`  ·  `)}`, 1000);
}

function describeCitationFilters(f: CitationListFilters): Mrkdwn | undefined {
  const parts = [
    f.domain ? mrkdwn`domain contains “${inlineText(f.domain, 80)}”` : undefined,
    f.prompt ? mrkdwn`prompt contains “${inlineText(f.prompt, 80)}”` : undefined,
    f.tags && f.tags.length > 0 ? escapeMrkdwn(counted(f.tags.length, 'tag')) : undefined,
  ].filter((part): part is Mrkdwn => part !== undefined);
  return parts.length > 0 ? mrkdwn`Filtered: ${joinMrkdwn(parts, mrkdwn`, `)}` : undefined;
}

export function citationsListReply(input: CitationsListInput): Reply {
  const { brand, response, filters } = input;
  const offset = Math.max(0, input.offset);
  const total = response.pagination.total;
  const top = (shown: number) =>
    compact([
      headerBlock(mrkdwn`${PAGES} · ${escapeMrkdwn(brand.name)}`),
      contextBlock(
        shown > 0
          ? mrkdwn`${formatCount(offset + 1)}–${formatCount(offset + shown)} of ${escapeMrkdwn(countFigure('citedPages', total))}`
          : mrkdwn`${escapeMrkdwn(countFigure('citedPages', total))} in all`,
        mrkdwn`most cited first`,
        describeCitationFilters(filters),
      ),
    ]);
  const base = {
    brandId: brand.id,
    limit: input.limit,
    ...(filters.domain ? { domain: filters.domain } : {}),
    ...(filters.prompt ? { prompt: filters.prompt } : {}),
    ...(filters.tags && filters.tags.length > 0 ? { tags: filters.tags } : {}),
  };
  const page = { actionPrefix: CITATIONS_PAGE_ACTION, base, offset, limit: input.limit, total };
  const paging = (shown: number, measuring = false) => offsetPagingBlock(page, shown, measuring);
  const all = response.citations.length;
  // Measured with every citation shown and both buttons: the real header and buttons can only be smaller.
  const room = Math.min(input.budget ?? Number.POSITIVE_INFINITY, roomLeft([...top(all), paging(all, true)]));
  const { kept } = takeLinesWithin(
    response.citations.map((c, i) => mrkdwn`${citationEntry(c, offset + i + 1)}\n`),
    room,
  );
  const shown = kept.length;

  const blocks: KnownBlock[] = top(shown);
  if (shown === 0) {
    const why =
      offset > 0 && total > 0
        ? 'That is past the last one; go back a page.'
        : describeCitationFilters(filters)
          ? 'Nothing matches these filters; try a shorter domain or prompt text.'
          : 'AI models have not cited any page for this brand yet.';
    blocks.push(sectionBlock(mrkdwn`No cited pages to show. ${escapeMrkdwn(why)}`));
  } else {
    blocks.push(...chunkSections(kept));
  }
  const buttons = paging(shown);
  if (buttons) blocks.push(buttons);
  const sample = response.citations
    .slice(0, Math.min(shown, 3))
    .map((c) => truncatePlain(c.url, 100))
    .join(', ');
  const text =
    shown === 0
      ? mrkdwn`No cited pages to show for ${escapeMrkdwn(brand.name)}.`
      : mrkdwn`Cited pages for ${escapeMrkdwn(brand.name)}, ${formatCount(offset + 1)}–${formatCount(offset + shown)} of ${formatCount(total)}: ${escapeMrkdwn(sample)}`;
  return { text: fallbackText(text), blocks };
}
