/**
 * `/visibility citations <brand> feed`: what changed between the current snapshot and an
 * earlier one, grouped by event type with counts (losses and competitors first: they are
 * what people act on), each URL with its title and the detail its type carries.
 */

import type { CitationFeedResponse, FeedEvent } from '../../../api/schemas/index.js';
import { countFigure, figureName } from '../../../figures/glossary.js';
import { counted } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatFigure, formatSignedCount } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn, slackDay } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { compact, contextBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText, linkOrText } from '../../views/link-or-text.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

interface CitationsFeedInput {
  brand: { id: string; name: string };
  daysBack: number | undefined;
  response: CitationFeedResponse;
}

const GROUPS: readonly { type: string; title: Mrkdwn; icon: Mrkdwn }[] = [
  { type: 'lost', title: mrkdwn`Lost`, icon: mrkdwn`:small_red_triangle_down:` },
  { type: 'competitor_appeared', title: mrkdwn`Competitor appeared`, icon: mrkdwn`:eyes:` },
  { type: 'sentiment_changed', title: mrkdwn`Sentiment changed`, icon: mrkdwn`:left_right_arrow:` },
  { type: 'new', title: mrkdwn`New`, icon: mrkdwn`:new:` },
];

/** The four documented types plus a couple of unknown ones; the rest are only counted. */
const MAX_GROUPS = 6;

/** `previousDate`: the feed's earlier snapshot, the day a sentiment change is measured from. */
function eventLine(e: FeedEvent, previousDate: string | null): Mrkdwn {
  const link = linkOrText(e.url, e.h1, 90);
  const facts: (Mrkdwn | undefined)[] = [inlineText(e.domain, 60)];
  switch (e.event_type) {
    case 'new':
      facts.push(
        typeof e.appearance_count === 'number'
          ? escapeMrkdwn(countFigure('citations', e.appearance_count))
          : undefined,
        e.mentions_brand === true
          ? mrkdwn`mentions you`
          : e.mentions_brand === false
            ? mrkdwn`does not mention you`
            : undefined,
      );
      break;
    case 'sentiment_changed':
      if (typeof e.sentiment === 'number' && typeof e.prev_sentiment === 'number') {
        facts.push(
          mrkdwn`sentiment ${formatFigure('sentiment', e.prev_sentiment)}${previousDate ? mrkdwn` on ${slackDay(previousDate)}` : mrkdwn``} → *${formatFigure('sentiment', e.sentiment)}* (${formatSignedCount(e.sentiment - e.prev_sentiment)})`,
        );
      }
      break;
    case 'competitor_appeared':
      if (e.competitor) facts.push(mrkdwn`*${inlineText(e.competitor, 50)}* now cited here`);
      break;
    default:
      break;
  }
  return mrkdwn`• ${link} — ${joinMrkdwn(
    facts.filter((f): f is Mrkdwn => Boolean(f)),
    mrkdwn` · `,
  )}`;
}

export function citationsFeedReply(input: CitationsFeedInput): Reply {
  const { brand, response: r } = input;
  const byType = new Map<string, FeedEvent[]>();
  for (const e of r.events) {
    const list = byType.get(e.event_type);
    if (list) list.push(e);
    else byType.set(e.event_type, [e]);
  }
  const groups = [
    ...GROUPS.filter((g) => byType.has(g.type)),
    ...[...byType.keys()]
      .filter((t) => !GROUPS.some((g) => g.type === t))
      .map((t) => ({ type: t, title: inlineText(t.replace(/_/g, ' '), 40), icon: mrkdwn`•` })),
  ];
  const counts = groups.map((g) => mrkdwn`${g.title} ${formatCount(byType.get(g.type)!.length)}`);
  const total =
    typeof r['pagination'] === 'object' && r['pagination'] !== null
      ? Number((r['pagination'] as { total?: unknown }).total)
      : Number.NaN;
  const partial = Number.isFinite(total) && total > r.events.length;
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`Citation feed · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      r.current_snapshot_date
        ? mrkdwn`${escapeMrkdwn(figureName('citedPages'))}: ${formatCount(r.total_current)} on ${slackDay(r.current_snapshot_date)} vs ${formatCount(r.total_previous)} on ${r.previous_snapshot_date ? slackDay(r.previous_snapshot_date) : mrkdwn`the earlier snapshot`}`
        : undefined,
      mrkdwn`${escapeMrkdwn(counted(input.daysBack ?? 7, 'day'))} back`,
      partial
        ? mrkdwn`counts cover the first ${formatCount(r.events.length)} of ${formatCount(total)} events`
        : undefined,
    ),
  ]);
  if (groups.length === 0) {
    blocks.push(
      sectionBlock(
        mrkdwn`No changes: the same pages are cited, with the same sentiment, as in the earlier snapshot.`,
      ),
    );
  } else {
    blocks.push(
      sectionBlock(
        mrkdwn`*${escapeMrkdwn(counted(r.events.length, 'change'))}*: ${joinMrkdwn(counts, mrkdwn` · `)}`,
        1000,
      ),
    );
    // Share the room: each group gets its part of the budget, so "New" cannot crowd out "Lost".
    const listed = groups.slice(0, MAX_GROUPS);
    const share = Math.floor(Math.min(8000, roomLeft(blocks) - 200) / listed.length);
    for (const g of listed) {
      const events = byType.get(g.type)!;
      const lines = events.slice(0, 15).map((e) => eventLine(e, r.previous_snapshot_date));
      const { kept } = takeLinesWithin(lines, share);
      const more = events.length - kept.length;
      blocks.push(
        ...chunkSections([
          mrkdwn`${g.icon} *${g.title}* (${formatCount(events.length)})`,
          ...kept,
          ...(more > 0 ? [mrkdwn`…and ${formatCount(more)} more`] : []),
        ]),
      );
    }
    if (groups.length > listed.length) {
      blocks.push(
        sectionBlock(
          mrkdwn`…and ${escapeMrkdwn(counted(groups.length - listed.length, 'more kind'))} of change`,
        ),
      );
    }
  }
  return {
    text: fallbackText(
      groups.length === 0
        ? mrkdwn`No citation changes for ${escapeMrkdwn(brand.name)}.`
        : mrkdwn`Citation changes for ${escapeMrkdwn(brand.name)}: ${joinMrkdwn(counts, mrkdwn`, `)}.`,
    ),
    blocks,
  };
}
