/**
 * `/visibility citations <brand> history`: totals, brand mentions, unique sources and
 * average sentiment over time, each as a sparkline with its first and latest figure, and
 * the competitors' mention series the same way (most-mentioned first).
 */

import type { CitationHistoryResponse, TimeSeriesPoint } from '../../api/schemas/index.js';
import type { Reply } from '../reply.js';
import { compact, contextBlock, fieldsBlock, headerBlock, sectionBlock } from './basic-blocks.js';
import type { KnownBlock } from './block-kit-types.js';
import { chunkSections } from './chunk-sections.js';
import { fallbackText } from './fallback-text.js';
import { formatCount, formatSignedPercent } from './format-number.js';
import { inlineText } from './link-or-text.js';
import { sparkline } from './sparkline.js';
import { roomLeft, takeLinesWithin } from './take-lines-within.js';

export interface CitationsHistoryInput {
  brand: { id: string; name: string };
  days: number | undefined;
  response: CitationHistoryResponse;
}

const SPARK_WIDTH = 40;

function change(first: number | null | undefined, last: number | null | undefined): string {
  if (typeof first !== 'number' || typeof last !== 'number') return '';
  if (first === 0) return last === 0 ? ' (no change)' : '';
  return ` (${formatSignedPercent(((last - first) / Math.abs(first)) * 100)})`;
}

function seriesLine(label: string, values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const first = known[0];
  const last = known.at(-1);
  const figures =
    known.length === 0 ? 'no data' : `${formatCount(first)} → *${formatCount(last)}*${change(first, last)}`;
  return `${label}  \`${sparkline(values, SPARK_WIDTH) || '·'}\`  ${figures}`;
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
    headerBlock(`Citation history · ${brand.name}`),
    contextBlock(
      range.start && range.end ? `${inlineText(range.start, 20)} – ${inlineText(range.end, 20)}` : undefined,
      input.days !== undefined ? `last ${input.days} days` : 'last 30 days',
      `${formatCount(response.snapshots_available)} snapshot${response.snapshots_available === 1 ? '' : 's'} available`,
    ),
  ]);
  if (points.length === 0) {
    blocks.push(sectionBlock('No citation snapshots in this period yet. The service records one a day.'));
  } else {
    const fields = fieldsBlock([
      { label: 'Total citations', value: formatCount(latest?.total_citations) },
      { label: 'Brand mentions', value: formatCount(latest?.brand_mentions) },
      { label: 'Unique sources', value: formatCount(latest?.unique_sources) },
      {
        label: 'Avg sentiment',
        value: typeof latest?.avg_sentiment === 'number' ? `${formatCount(latest.avg_sentiment)} / 100` : '—',
      },
    ]);
    if (fields) blocks.push(fields);
    blocks.push(
      sectionBlock(
        [
          `*Trend* (${inlineText(points[0]!.date, 20)} → ${inlineText(latest!.date, 20)})`,
          seriesLine(
            'Citations',
            points.map((p) => p.total_citations),
          ),
          seriesLine(
            'Mentions',
            points.map((p) => p.brand_mentions),
          ),
          seriesLine(
            'Sources',
            points.map((p) => p.unique_sources),
          ),
          seriesLine(
            'Sentiment',
            points.map((p) => p.avg_sentiment),
          ),
        ].join('\n'),
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
        `*${inlineText(c.name, 40)}*`,
        c.sorted.map((p) => p.mentions),
      ),
    );
    const { kept } = takeLinesWithin(lines.slice(0, 15), Math.min(4500, roomLeft(blocks) - 100));
    const shown = kept;
    const more = lines.length - shown.length;
    blocks.push(
      ...chunkSections([
        '*Competitor mentions*',
        ...shown,
        ...(more > 0 ? [`…and ${formatCount(more)} more competitors`] : []),
      ]),
    );
  }
  const text = latest
    ? `Citation history for ${brand.name}: ${latest.total_citations} citations, ${latest.brand_mentions} brand mentions, ${latest.unique_sources} sources on ${latest.date}.`
    : `No citation history for ${brand.name} in this period.`;
  return { text: fallbackText(text), blocks };
}
