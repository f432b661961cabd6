/**
 * The figures a chart builder draws, also as the model of a chart Slack draws itself (a
 * `data_visualization` block, messages/native-chart.ts): the same days and values as the
 * image, so the picture, the native chart and the alt text never disagree. Days are
 * labelled in the one short date style ("1 Nov").
 */
import { shortDayText } from '../figures/day-text.js';
import type { DataVisualizationBlock, KnownBlock } from '../messages/block-kit-types.js';
import { escapeMrkdwn, type Mrkdwn } from '../messages/mrkdwn.js';
import { type SeriesChartModel, type SeriesInput, seriesChart } from '../messages/native-chart.js';
import type { ChartSpec } from './chart-spec.js';

const dayLabel = (date: string): Mrkdwn => escapeMrkdwn(shortDayText(date));

/** One series of `{date, value}` days, labelled by day. */
export function daySeries(name: string, days: readonly { date: string; value: number }[]): SeriesInput {
  return { name: escapeMrkdwn(name), points: days.map((d) => ({ label: dayLabel(d.date), value: d.value })) };
}

/** The x-axis of day labels, oldest first, from every date the series use. */
function dayCategories(dates: Iterable<string>): Mrkdwn[] {
  return [...new Set(dates)].sort().map(dayLabel);
}

export function nativeModel(
  type: SeriesChartModel['type'],
  title: string,
  series: readonly SeriesInput[],
  dates: Iterable<string>,
  yLabel?: string,
): SeriesChartModel {
  return {
    type,
    title: escapeMrkdwn(title),
    series,
    categories: dayCategories(dates),
    ...(yLabel ? { yLabel: escapeMrkdwn(yLabel) } : {}),
  };
}

/** The spec's chart as a block Slack draws, or undefined when it has nothing to draw. */
export function nativeChartBlock(spec: ChartSpec, blockId: string): DataVisualizationBlock | undefined {
  return spec.native ? seriesChart({ ...spec.native, blockId }).block : undefined;
}

/** The chart's text line: its numbers in words (the alt text), shown beside the chart or the image. */
export function chartTextLine(spec: ChartSpec): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(spec.altText) }] };
}
