/**
 * `/visibility citations <brand> sources <domain>`: one domain's cited pages with their
 * appearances, sentiment, whether they mention the brand and which competitors they name
 * (Slack's own table, sortable by each figure), plus the domain's totals and first/last
 * seen dates. A domain without citations (the
 * service answers 404) gets its own explanation rather than an error.
 */

import type { CitationSourcesResponse, SourcePage } from '../../../api/schemas/index.js';
import { countFigure, figureName, figureText } from '../../../figures/glossary.js';
import { countText } from '../../../figures/number-text.js';
import { possessive } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import type { NativeTable } from '../../../messages/data-table.js';
import { formatCount, formatFigure } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDay } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { nativeTable, type TableModel, type TableValue } from '../../views/table-model.js';
import { textWithTable } from '../../views/tables-as-text.js';
import { jsonLength, roomLeft } from '../../views/take-lines-within.js';

interface CitationsSourcesInput {
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

/** Rows a table shows at once; Slack pages through the rest. */
const PAGE_SIZE = 10;
const MAX_PAGES = 60;

/** The pages as a table: each linked by its heading, its figures as numbers. */
function pagesTable(pages: readonly SourcePage[]): TableModel {
  const number = (id: 'citations' | 'sentiment', n: number | null | undefined): TableValue =>
    typeof n === 'number' && Number.isFinite(n)
      ? { number: n, text: figureText(id, n) }
      : { number: Number.NaN, text: '—' };
  return {
    columns: [
      { label: 'Page' },
      { label: figureName('citations'), align: 'right' },
      { label: figureName('sentiment'), align: 'right' },
      { label: 'Mentions you' },
      { label: 'Competitors named' },
    ],
    rows: pages.map((p) => [
      { url: p.url, text: p.h1?.trim() || p.url },
      number('citations', p.appearance_count),
      number('sentiment', p.sentiment),
      p.mentions_brand ? '✓' : '✗',
      p.competitors.length > 0
        ? p.competitors.slice(0, 4).join(', ') +
          (p.competitors.length > 4 ? ` +${p.competitors.length - 4}` : '')
        : '—',
    ]),
  };
}

/** The most-cited pages whose table fits `room` serialised characters. */
function fittedPagesTable(pages: readonly SourcePage[], room: number): NativeTable | undefined {
  for (let n = Math.min(pages.length, MAX_PAGES); n > 0; n = n > 10 ? Math.floor(n * 0.8) : n - 1) {
    const caption = `${figureName('citedPages')} (${countText(pages.length)})${n < pages.length ? `, the ${n} most cited` : ''}`;
    const table = nativeTable(pagesTable(pages.slice(0, n)), { caption, pageSize: PAGE_SIZE });
    if (table.block && jsonLength(table.block) <= room) return table;
  }
  return undefined;
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
  const table = fittedPagesTable(pages, roomLeft(blocks) - 100);
  blocks.push(table?.block ?? sectionBlock(mrkdwn`No pages listed for this domain.`));
  const sentence = fallbackText(
    mrkdwn`${escapeMrkdwn(r.domain)} for ${escapeMrkdwn(brand.name)}: ${escapeMrkdwn(countFigure('citations', r.total_citations))} on ${escapeMrkdwn(countFigure('citedPages', r.unique_pages))}; ${r.mentions_you ? mrkdwn`mentions you` : mrkdwn`does not mention you`}.`,
  );
  return { text: table ? textWithTable(sentence, table.text) : sentence, blocks };
}

/** docs/api.md §7: `view=sources` answers 404 when no citation comes from the domain. */
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
