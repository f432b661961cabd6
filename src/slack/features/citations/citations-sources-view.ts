/**
 * `/visibility citations <brand> sources <domain>`: one domain's cited pages with their
 * appearances, sentiment, whether they mention the brand and which competitors they name,
 * plus the domain's totals and first/last seen dates. A domain without citations (the
 * service answers 404) gets its own explanation rather than an error.
 */

import type { CitationSourcesResponse, SourcePage } from '../../../api/schemas/index.js';
import { countFigure, figureName } from '../../../figures/glossary.js';
import { counted, possessive } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatFigure } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDay } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

export interface CitationsSourcesInput {
  brand: { id: string; name: string };
  response: CitationSourcesResponse;
  /** A line under the heading, e.g. why this domain was chosen. */
  note?: Mrkdwn | undefined;
}

const names = (list: readonly string[], max = 4) =>
  mrkdwn`${joinMrkdwn(
    list.slice(0, max).map((n) => inlineText(n, 40)),
    mrkdwn`, `,
  )}${list.length > max ? mrkdwn` +${list.length - max}` : mrkdwn``}`;

function pageLine(p: SourcePage): Mrkdwn {
  const facts = [
    escapeMrkdwn(countFigure('citations', p.appearance_count)),
    typeof p.sentiment === 'number' ? mrkdwn`sentiment ${formatFigure('sentiment', p.sentiment)}` : undefined,
    p.mentions_brand ? mrkdwn`:white_check_mark: mentions you` : mrkdwn`does not mention you`,
    p.competitors.length > 0 ? mrkdwn`competitors: ${names(p.competitors)}` : undefined,
  ].filter((f): f is Mrkdwn => f !== undefined);
  return mrkdwn`• ${linkOrText(p.url, p.h1, 100)} — ${joinMrkdwn(facts, mrkdwn` · `)}`;
}

export function citationsSourcesReply(input: CitationsSourcesInput): Reply {
  const { brand, response: r } = input;
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`${escapeMrkdwn(truncatePlain(r.domain, 80))} · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      r.first_seen ? mrkdwn`first seen ${slackDay(r.first_seen)}` : undefined,
      r.last_seen ? mrkdwn`last seen ${slackDay(r.last_seen)}` : undefined,
    ),
    input.note ? sectionBlock(input.note, 1000) : undefined,
    fieldsBlock([
      { label: escapeMrkdwn(figureName('citations')), value: formatCount(r.total_citations) },
      { label: escapeMrkdwn(figureName('citedPages')), value: formatCount(r.unique_pages) },
      {
        label: mrkdwn`Pages that mention you`,
        value: r.mentions_you ? formatCount(r.mention_count) : mrkdwn`none`,
      },
      { label: escapeMrkdwn(figureName('sentiment')), value: formatFigure('sentiment', r.avg_sentiment) },
      {
        label: mrkdwn`Competitors on this domain`,
        value: r.competitors_on_domain.length > 0 ? names(r.competitors_on_domain, 8) : mrkdwn`none`,
      },
    ]),
  ]);
  const pages = [...r.pages].sort((a, b) => b.appearance_count - a.appearance_count);
  const { kept, dropped } = takeLinesWithin(pages.slice(0, 60).map(pageLine), roomLeft(blocks) - 100);
  const hidden = dropped + pages.length - Math.min(pages.length, 60);
  if (kept.length === 0) blocks.push(sectionBlock(mrkdwn`No pages listed for this domain.`));
  else {
    blocks.push(
      ...chunkSections([
        mrkdwn`*${escapeMrkdwn(figureName('citedPages'))}* (${formatCount(pages.length)})`,
        ...kept,
        ...(hidden > 0 ? [mrkdwn`…and ${escapeMrkdwn(counted(hidden, 'more page'))}`] : []),
      ]),
    );
  }
  return {
    text: fallbackText(
      mrkdwn`${escapeMrkdwn(r.domain)} for ${escapeMrkdwn(brand.name)}: ${escapeMrkdwn(countFigure('citations', r.total_citations))} on ${escapeMrkdwn(countFigure('citedPages', r.unique_pages))}; ${r.mentions_you ? mrkdwn`mentions you` : mrkdwn`does not mention you`}.`,
    ),
    blocks,
  };
}

/** API.md §7: `view=sources` answers 404 when no citation comes from the domain. */
export function noSourceCitationsReply(brand: { name: string }, domain: string): Reply {
  const d = escapeMrkdwn(truncatePlain(domain, 200));
  const name = escapeMrkdwn(truncatePlain(brand.name, 100));
  const text = mrkdwn`No citations for this domain: AI answers about *${name}* have not cited any page on \`${d}\`. The domain must match exactly (\`docs.example.com\` and \`example.com\` are different); \`/visibility citations "${name}" list --domain ${d}\` finds partial matches.`;
  return {
    text: fallbackText(
      mrkdwn`No citations for ${escapeMrkdwn(domain)} in ${escapeMrkdwn(possessive(brand.name))} data.`,
    ),
    blocks: [sectionBlock(text)],
  };
}

/** `sources --most-cited` for a brand no AI answer cites yet: nothing to pick from. */
export function noSourceDomainsReply(brand: { name: string }): Reply {
  const name = escapeMrkdwn(truncatePlain(brand.name, 100));
  return {
    text: fallbackText(mrkdwn`No source domains cite ${escapeMrkdwn(brand.name)} yet.`),
    blocks: [
      sectionBlock(
        mrkdwn`No source domains yet: AI answers about *${name}* have not cited any page in the latest snapshot.`,
      ),
    ],
  };
}
