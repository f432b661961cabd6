/**
 * `/visibility citations <brand> history`: the latest day's citations, brand mentions,
 * sources and sentiment (each by its glossary name), then each over the period as a
 * sparkline with its first and latest figure, and the competitors' mention series the
 * same way (most-mentioned first), named as mentions: they count what brand mentions count.
 */

import type { CitationHistoryResponse, TimeSeriesPoint } from '../../../api/schemas/index.js';
import { dayCount, daysIncluded, dayText } from '../../../figures/day-text.js';
import { countFigure, type FigureId, figure, figureName, figureWords } from '../../../figures/glossary.js';
import { percentChange } from '../../../figures/number-text.js';
import { counted, nounFor } from '../../../figures/plural.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatFigure, formatSignedCount, formatSignedPercent } from '../../../messages/format-number.js';
import {
  escapeMrkdwn,
  joinMrkdwn,
  type Mrkdwn,
  mrkdwn,
  slackDay,
  slackPeriod,
} from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { sparkline } from '../../views/sparkline.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

interface CitationsHistoryInput {
  brand: { id: string; name: string };
  days: number | undefined;
  response: CitationHistoryResponse;
  /** Now, so a history whose latest day is well behind says so. */
  nowMs?: number;
}

const SPARK_WIDTH = 40;
const name = (id: FigureId): Mrkdwn => escapeMrkdwn(figureName(id));

/** The change of a count in percent; of a score (sentiment) in points, which is what it moves by. */
function change(id: FigureId, first: number | null | undefined, last: number | null | undefined): Mrkdwn {
  if (typeof first !== 'number' || typeof last !== 'number') return mrkdwn``;
  if (figure(id).unit === null) {
    const points = Math.round(last) - Math.round(first);
    return points === 0
      ? mrkdwn` (no change)`
      : mrkdwn` (${formatSignedCount(points)} ${escapeMrkdwn(nounFor(Math.abs(points), 'point'))})`;
  }
  if (first === 0) return last === 0 ? mrkdwn` (no change)` : mrkdwn``;
  return mrkdwn` (${formatSignedPercent(percentChange(first, last))})`;
}

function seriesLine(id: FigureId, label: Mrkdwn, values: readonly (number | null)[]): Mrkdwn {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const first = known[0];
  const last = known.at(-1);
  const figures =
    known.length === 0
      ? mrkdwn`no data`
      : mrkdwn`${formatFigure(id, first)} → *${formatFigure(id, last)}*${change(id, first, last)}`;
  return mrkdwn`${label}  \`${sparkline(values, SPARK_WIDTH) || mrkdwn`·`}\`  ${figures}`;
}

function sortedByDate<T extends { date: string }>(points: readonly T[]): T[] {
  return [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** "30 days to Nov 27, 2026", from the points themselves (the days the service answered for). */
function periodOf(points: readonly TimeSeriesPoint[], requested: number, nowMs: number | undefined): Mrkdwn {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return mrkdwn`last ${escapeMrkdwn(dayCount(requested))}`;
  return slackPeriod(
    daysIncluded(first.date.slice(0, 10), last.date.slice(0, 10)),
    last.date.slice(0, 10),
    nowMs,
  );
}

function latestFields(latest: TimeSeriesPoint): KnownBlock | undefined {
  return fieldsBlock(
    (['citations', 'brandMentions', 'uniqueSources', 'sentiment'] as const).map((id) => ({
      label: name(id),
      value: formatFigure(id, FIELD[id](latest)),
    })),
  );
}

/** Which point field each figure reads (the glossary's API fields). */
const FIELD = {
  citations: (p: TimeSeriesPoint) => p.total_citations,
  brandMentions: (p: TimeSeriesPoint) => p.brand_mentions,
  uniqueSources: (p: TimeSeriesPoint) => p.unique_sources,
  sentiment: (p: TimeSeriesPoint) => p.avg_sentiment,
} as const;

export function citationsHistoryReply(input: CitationsHistoryInput): Reply {
  const { brand, response } = input;
  const points: TimeSeriesPoint[] = sortedByDate(response.brand_time_series);
  const latest = points.at(-1);
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`Citation history · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      periodOf(points, input.days ?? 30, input.nowMs),
      mrkdwn`${escapeMrkdwn(counted(response.snapshots_available, 'daily snapshot'))} available`,
    ),
  ]);
  if (!latest) {
    blocks.push(
      sectionBlock(mrkdwn`No citation snapshots in this period yet. The service records one a day.`),
    );
  } else {
    blocks.push(sectionBlock(mrkdwn`*On ${slackDay(latest.date.slice(0, 10))}*, the latest day:`));
    const fields = latestFields(latest);
    if (fields) blocks.push(fields);
    blocks.push(
      sectionBlock(
        joinMrkdwn(
          [
            mrkdwn`*Trend* (${slackDay(points[0]!.date.slice(0, 10))} → ${slackDay(latest.date.slice(0, 10))}; bars measured from zero)`,
            ...(['citations', 'brandMentions', 'uniqueSources', 'sentiment'] as const).map((id) =>
              seriesLine(id, name(id), points.map(FIELD[id])),
            ),
          ],
          mrkdwn`\n`,
        ),
      ),
    );
  }

  const competitors = Object.entries(response.competitor_time_series)
    .map(([competitor, series]) => {
      const sorted = sortedByDate(series);
      return { competitor, sorted, latest: sorted.at(-1)?.mentions ?? 0 };
    })
    .sort((a, b) => b.latest - a.latest || a.competitor.localeCompare(b.competitor));
  if (competitors.length > 0) {
    const lines = competitors.map((c) =>
      seriesLine(
        'competitorMentions',
        mrkdwn`*${inlineText(c.competitor, 40)}*`,
        c.sorted.map((p) => p.mentions),
      ),
    );
    const { kept } = takeLinesWithin(lines.slice(0, 15), Math.min(4500, roomLeft(blocks) - 100));
    const more = lines.length - kept.length;
    blocks.push(
      ...chunkSections([
        mrkdwn`*${name('competitorMentions')}* (counted like your ${escapeMrkdwn(figureWords('brandMentions'))}: AI answers naming each competitor)`,
        ...kept,
        ...(more > 0 ? [mrkdwn`…and ${escapeMrkdwn(counted(more, 'more competitor'))}`] : []),
      ]),
    );
  }
  const glossary = contextBlock(
    mrkdwn`*${name('citations')}*: ${escapeMrkdwn(figure('citations').explanation)} \`/visibility help figures\` says what each figure counts.`,
  );
  if (glossary) blocks.push(glossary);
  const text = latest
    ? mrkdwn`Citation history for ${escapeMrkdwn(brand.name)} on ${escapeMrkdwn(dayText(latest.date))}: ${escapeMrkdwn(counted(latest.total_citations, 'citation'))}, ${escapeMrkdwn(countFigure('brandMentions', latest.brand_mentions))}, ${escapeMrkdwn(countFigure('uniqueSources', latest.unique_sources))}.`
    : mrkdwn`No citation history for ${escapeMrkdwn(brand.name)} in this period.`;
  return { text: fallbackText(text), blocks };
}
