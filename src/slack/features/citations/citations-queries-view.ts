/**
 * `/visibility citations <brand> queries`: the prompts behind the citations, clustered by
 * intent with the brand's coverage, then the top queries, the gap queries (where the brand
 * does not appear) and how many queries are new or rising.
 */

import type { CitationQueriesResponse, QueryInsight } from '../../../api/schemas/index.js';
import { countFigure } from '../../../figures/glossary.js';
import { countText } from '../../../figures/number-text.js';
import { counted } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatPercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { ownLookup } from '../../../messages/own-lookup.js';
import type { Reply } from '../../../messages/reply.js';
import { intentName } from '../../../messages/vocabulary.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';
import { percentScale } from './percent-scale.js';

interface CitationsQueriesInput {
  brand: { id: string; name: string };
  response: CitationQueriesResponse;
}

const TREND: Record<string, Mrkdwn> = {
  up: mrkdwn`↑ rising`,
  down: mrkdwn`↓ falling`,
  stable: mrkdwn`→ stable`,
};
const intentLabel = (i: string) => inlineText(intentName(i), 40);

function queryLine(q: QueryInsight): Mrkdwn {
  const facts = [
    intentLabel(q.intent),
    mrkdwn`asked ${formatCount(q.frequency)}×`,
    escapeMrkdwn(countFigure('citedPages', q.citations_found)),
    q.brand_appears ? mrkdwn`:white_check_mark: you appear` : mrkdwn`:x: you are missing`,
    ownLookup(TREND, q.trend) ?? inlineText(q.trend, 20),
    q.is_new ? mrkdwn`*new*` : undefined,
  ].filter((f): f is Mrkdwn => f !== undefined);
  return mrkdwn`• “${inlineText(q.query, 150)}” — ${joinMrkdwn(facts, mrkdwn` · `)}`;
}

/** Gap queries arrive as insights, bare strings or other objects (docs/api.md: "array"). */
function gapLine(g: unknown): Mrkdwn {
  if (typeof g === 'string') return mrkdwn`• “${inlineText(g, 150)}”`;
  if (typeof g === 'object' && g !== null) {
    const o = g as Record<string, unknown>;
    if (
      typeof o['query'] === 'string' &&
      typeof o['intent'] === 'string' &&
      typeof o['frequency'] === 'number'
    ) {
      return queryLine(o as unknown as QueryInsight);
    }
    const text = [o['query'], o['text'], o['prompt']].find((v) => typeof v === 'string');
    if (typeof text === 'string') return mrkdwn`• “${inlineText(text, 150)}”`;
  }
  return mrkdwn`• ${inlineText(JSON.stringify(g) ?? '', 150)}`;
}

function listSection(title: Mrkdwn, lines: readonly Mrkdwn[], budget: number, max: number): KnownBlock[] {
  if (lines.length === 0) return [];
  const { kept } = takeLinesWithin(lines.slice(0, max), budget);
  const more = lines.length - kept.length;
  return chunkSections([title, ...kept, ...(more > 0 ? [mrkdwn`…and ${formatCount(more)} more`] : [])]);
}

export function citationsQueriesReply(input: CitationsQueriesInput): Reply {
  const { brand, response } = input;
  const scale = percentScale([
    ...response.clusters.map((c) => c.coverage_rate),
    ...Object.values(response.coverage_by_intent),
  ]);
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`Queries · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      mrkdwn`${formatCount(response.new_queries_count)} new`,
      mrkdwn`${formatCount(response.rising_queries_count)} rising`,
      escapeMrkdwn(counted(response.top_queries.length, 'top query', 'top queries')),
      escapeMrkdwn(counted(response.gap_queries.length, 'gap')),
    ),
  ]);

  const clusterLines = response.clusters.map((c) => {
    const examples = joinMrkdwn(
      c.queries.slice(0, 2).map((q) => mrkdwn`“${inlineText(q, 60)}”`),
      mrkdwn`, `,
    );
    // The intent in brackets only when the label does not already say it.
    const named = c.label !== '' && c.label.toLowerCase() !== intentName(c.intent).toLowerCase();
    return mrkdwn`• *${inlineText(named ? c.label : intentName(c.intent), 60)}*${named ? mrkdwn` (${intentLabel(c.intent)})` : mrkdwn``} — coverage *${formatPercent(c.coverage_rate * scale)}*, in ${formatCount(c.brand_appears_in)} of ${escapeMrkdwn(counted(c.queries.length, 'query'))} · ${escapeMrkdwn(countFigure('citedPages', c.total_citations))}${examples ? mrkdwn` · e.g. ${examples}` : mrkdwn``}`;
  });
  const clustered = new Set(response.clusters.map((c) => c.intent));
  const extra = Object.entries(response.coverage_by_intent).filter(([intent]) => !clustered.has(intent));
  if (extra.length > 0) {
    clusterLines.push(
      mrkdwn`Coverage by intent: ${joinMrkdwn(
        extra.slice(0, 10).map(([intent, v]) => mrkdwn`${intentLabel(intent)} ${formatPercent(v * scale)}`),
        mrkdwn` · `,
      )}`,
    );
  }
  // Three lists share the room left: clusters, top queries, gaps (most to least telling).
  const room = roomLeft(blocks) - 100;
  blocks.push(...listSection(mrkdwn`*Clusters by intent*`, clusterLines, Math.min(3000, room * 0.37), 12));
  blocks.push(
    ...listSection(
      mrkdwn`*Top queries*`,
      response.top_queries.map(queryLine),
      Math.min(2800, room * 0.33),
      10,
    ),
  );
  blocks.push(
    ...listSection(
      mrkdwn`*Gap queries* (competitors cited, you are not)`,
      response.gap_queries.map(gapLine),
      Math.min(2400, room * 0.27),
      10,
    ),
  );
  if (
    response.clusters.length === 0 &&
    response.top_queries.length === 0 &&
    response.gap_queries.length === 0
  ) {
    blocks.push(sectionBlock(mrkdwn`No query insights yet for this brand.`));
  }
  const text = mrkdwn`Queries for ${escapeMrkdwn(brand.name)}: ${escapeMrkdwn(
    [
      counted(response.clusters.length, 'intent cluster'),
      counted(response.top_queries.length, 'top query'),
      counted(response.gap_queries.length, 'gap'),
      `${countText(response.new_queries_count)} new`,
      `${countText(response.rising_queries_count)} rising`,
    ].join(', '),
  )}.`;
  return { text: fallbackText(text), blocks };
}
