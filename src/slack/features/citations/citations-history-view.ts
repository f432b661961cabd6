/**
 * `/visibility citations <brand> history`: totals, brand mentions, unique sources and
 * average sentiment over time, each as a sparkline with its first and latest figure, and
 * the competitors' mention series the same way (most-mentioned first).
 */

import type { CitationHistoryResponse, TimeSeriesPoint } from '../../../api/schemas/index.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { formatCount, formatSignedPercent } from '../../../messages/format-number.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from '../../views/basic-blocks.js';
import { chunkSections } from '../../views/chunk-sections.js';
import { fallbackText } from '../../views/fallback-text.js';
import { inlineText } from '../../views/link-or-text.js';
import { sparkline } from '../../views/sparkline.js';
import { roomLeft, takeLinesWithin } from '../../views/take-lines-within.js';

export interface CitationsHistoryInput {
  brand: { id: string; name: string };
  days: number | undefined;
  response: CitationHistoryResponse;
}

const SPARK_WIDTH = 40;

function change(first: number | null | undefined, last: number | null | undefined): Mrkdwn {
  if (typeof first !== 'number' || typeof last !== 'number') return mrkdwn``;
  if (first === 0) return last === 0 ? mrkdwn` (no change)` : mrkdwn``;
  return mrkdwn` (${formatSignedPercent(((last - first) / Math.abs(first)) * 100)})`;
}

function seriesLine(label: Mrkdwn, values: readonly (number | null)[]): Mrkdwn {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const first = known[0];
  const last = known.at(-1);
  const figures =
    known.length === 0
      ? mrkdwn`no data`
      : mrkdwn`${formatCount(first)} → *${formatCount(last)}*${change(first, last)}`;
  return mrkdwn`${label}  \`${sparkline(values, SPARK_WIDTH) || mrkdwn`·`}\`  ${figures}`;
}

function sortedByDate<T extends { date: string }>(points: readonly T[]): T[] {
  return [...points].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export function citationsHistoryReply(input: CitationsHistoryInput): Reply {
  const { brand, response } = input;
  const points: TimeSeriesPoint[] = sortedByDate(response.brand_time_series);
  const latest = points.at(-1);
  const range = response.date_range;
  const blocks: KnownBlock[] = compact([
    headerBlock(mrkdwn`Citation history · ${escapeMrkdwn(brand.name)}`),
    contextBlock(
      range.start && range.end
        ? mrkdwn`${inlineText(range.start, 20)} – ${inlineText(range.end, 20)}`
        : undefined,
      input.days !== undefined ? mrkdwn`last ${input.days} days` : mrkdwn`last 30 days`,
      mrkdwn`${formatCount(response.snapshots_available)} snapshot${response.snapshots_available === 1 ? mrkdwn`` : mrkdwn`s`} available`,
    ),
  ]);
  if (points.length === 0) {
    blocks.push(
      sectionBlock(mrkdwn`No citation snapshots in this period yet. The service records one a day.`),
    );
  } else {
    const fields = fieldsBlock([
      { label: mrkdwn`Total citations`, value: formatCount(latest?.total_citations) },
      { label: mrkdwn`Brand mentions`, value: formatCount(latest?.brand_mentions) },
      { label: mrkdwn`Unique sources`, value: formatCount(latest?.unique_sources) },
      {
        label: mrkdwn`Avg sentiment`,
        value:
          typeof latest?.avg_sentiment === 'number'
            ? mrkdwn`${formatCount(latest.avg_sentiment)} / 100`
            : mrkdwn`—`,
      },
    ]);
    if (fields) blocks.push(fields);
    blocks.push(
      sectionBlock(
        joinMrkdwn(
          [
            mrkdwn`*Trend* (${inlineText(points[0]!.date, 20)} → ${inlineText(latest!.date, 20)}; bars measured from zero)`,
            seriesLine(
              mrkdwn`Citations`,
              points.map((p) => p.total_citations),
            ),
            seriesLine(
              mrkdwn`Mentions`,
              points.map((p) => p.brand_mentions),
            ),
            seriesLine(
              mrkdwn`Sources`,
              points.map((p) => p.unique_sources),
            ),
            seriesLine(
              mrkdwn`Sentiment`,
              points.map((p) => p.avg_sentiment),
            ),
          ],
          mrkdwn`\n`,
        ),
      ),
    );
  }

  const competitors = Object.entries(response.competitor_time_series)
    .map(([name, series]) => {
      const sorted = sortedByDate(series);
      return { name, sorted, latest: sorted.at(-1)?.mentions ?? 0 };
    })
    .sort((a, b) => b.latest - a.latest || a.name.localeCompare(b.name));
  if (competitors.length > 0) {
    const lines = competitors.map((c) =>
      seriesLine(
        mrkdwn`*${inlineText(c.name, 40)}*`,
        c.sorted.map((p) => p.mentions),
      ),
    );
    const { kept } = takeLinesWithin(lines.slice(0, 15), Math.min(4500, roomLeft(blocks) - 100));
    const shown = kept;
    const more = lines.length - shown.length;
    blocks.push(
      ...chunkSections([
        mrkdwn`*Competitor mentions*`,
        ...shown,
        ...(more > 0 ? [mrkdwn`…and ${formatCount(more)} more competitors`] : []),
      ]),
    );
  }
  const text = latest
    ? mrkdwn`Citation history for ${escapeMrkdwn(brand.name)}: ${latest.total_citations} citations, ${latest.brand_mentions} brand mentions, ${latest.unique_sources} sources on ${escapeMrkdwn(latest.date)}.`
    : mrkdwn`No citation history for ${escapeMrkdwn(brand.name)} in this period.`;
  return { text: fallbackText(text), blocks };
}
