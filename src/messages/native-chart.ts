/**
 * Figures as a chart Slack draws itself: a `data_visualization` block (line, bar, area or
 * pie) with the text line that states its numbers, as an image's alt text does. Slack
 * shows the text in notifications and where the block is not drawn; a screen reader
 * reads it.
 *
 * Fitted to Slack's reference by construction: a title of at most 50 characters, at most
 * 6 series, each named in at most 20 characters (names kept unique), 1–20 points whose
 * labels (at most 20 characters) are among `axis_config.categories`, a pie of 1–6 slices
 * greater than 0. Points that are not finite numbers are gaps, not zeros. The strings are
 * `Mrkdwn` like every text we send, and the limits are counted on the escaped text.
 * At most 2 charts go in one message (BLOCK_KIT_LIMITS.chartsPerMessage): the caller's
 * concern, as a message holds more than one builder's output.
 */
import { countText, NO_FIGURE, percentText } from '../figures/number-text.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { ChartPoint, ChartSeries, DataVisualizationBlock } from './block-kit-types.js';
import { escapeMrkdwn, joinMrkdwn, type Mrkdwn, mrkdwn } from './mrkdwn.js';
import { truncatePlain } from './truncate-mrkdwn.js';

export interface PointInput {
  label: Mrkdwn;
  value: number | null | undefined;
}

export interface SeriesInput {
  name: Mrkdwn;
  points: readonly PointInput[];
}

export interface SeriesChartModel {
  type: 'line' | 'bar' | 'area';
  title: Mrkdwn;
  /** In the order the legend shows them; past 6, the last ones are left out. */
  series: readonly SeriesInput[];
  /** The x-axis in order; default the labels in the order they first appear. Past 20, the last 20 are kept. */
  categories?: readonly Mrkdwn[];
  xLabel?: Mrkdwn;
  yLabel?: Mrkdwn;
  blockId?: string;
}

interface PieChartModel {
  title: Mrkdwn;
  segments: readonly PointInput[];
  blockId?: string;
}

export interface NativeChart {
  /** undefined when there is nothing to draw (no finite point, no slice above 0). */
  block: DataVisualizationBlock | undefined;
  /** The title and every series' figures, in words and the shared number format. */
  text: Mrkdwn;
  /** Series (or pie slices, folded into "Other") left out to stay within Slack's limits. */
  omitted: number;
}

/** Series with this many points or fewer state every value; longer ones their range. */
const LIST_EVERY_VALUE_UP_TO = 7;

const isFigure = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** A label or name Slack accepts: at least one character; a blank one reads "—". */
const shown = (text: Mrkdwn): Mrkdwn => (text.trim() === '' ? escapeMrkdwn(NO_FIGURE) : text);

/**
 * Each text cut to `max` and different from the others: a cut (or a repeat) that would
 * make two the same ends in a number instead ("Northwind Outfitte…", "Northwind Outfit… 2").
 */
function fitDistinct(texts: readonly Mrkdwn[], max: number): Mrkdwn[] {
  const taken = new Set<Mrkdwn>();
  return texts.map((raw) => {
    const text = shown(raw);
    let candidate = truncatePlain(text, max);
    for (let n = 2; taken.has(candidate); n += 1) {
      const suffix = ` ${n}`;
      candidate = mrkdwn`${truncatePlain(text, max - suffix.length)}${escapeMrkdwn(suffix)}`;
    }
    taken.add(candidate);
    return candidate;
  });
}

/** Each distinct text fitted with fitDistinct; the same text, the same label. */
export function fitUnique(texts: readonly Mrkdwn[], max: number): Map<Mrkdwn, Mrkdwn> {
  const distinct = [...new Set(texts)];
  const fitted = fitDistinct(distinct, max);
  return new Map(distinct.map((text, i) => [text, fitted[i]!]));
}

/** "GPTBot 1,234, ClaudeBot 567" for a few points; "24 on 1 Nov to 23 on 14 Nov, low 20, high 26" for more. */
export function describePoints(points: readonly ChartPoint[]): Mrkdwn {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return mrkdwn`no data`;
  if (points.length <= LIST_EVERY_VALUE_UP_TO) {
    return joinMrkdwn(
      points.map((p) => mrkdwn`${p.label} ${escapeMrkdwn(countText(p.value))}`),
      mrkdwn`, `,
    );
  }
  const values = points.map((p) => p.value);
  const n = (v: number) => escapeMrkdwn(countText(v));
  return mrkdwn`${n(first.value)} on ${first.label} to ${n(last.value)} on ${last.label}, low ${n(Math.min(...values))}, high ${n(Math.max(...values))}`;
}

function chartText(title: Mrkdwn, parts: readonly Mrkdwn[], omitted: number): Mrkdwn {
  const more = omitted > 0 ? mrkdwn` (…and ${omitted} more not shown)` : mrkdwn``;
  return mrkdwn`${title}: ${parts.length > 0 ? joinMrkdwn(parts, mrkdwn`; `) : mrkdwn`no data`}${more}`;
}

/** The x-axis: the last 20 distinct categories, fitted, and the fitting of each kept label. */
function axisOf(model: SeriesChartModel, series: readonly SeriesInput[]) {
  const labels = model.categories ?? series.flatMap((s) => s.points.map((p) => p.label));
  const kept = [...new Set(labels)].slice(-L.chartPoints);
  const fit = fitUnique(kept, L.chartLabel);
  return { fit, categories: kept.map((c) => fit.get(c)!) };
}

/** A line, bar or area chart of `model.series`, fitted to Slack's limits, with its text. */
export function seriesChart(model: SeriesChartModel): NativeChart {
  const title = truncatePlain(shown(model.title), L.chartTitle);
  const inputs = model.series.slice(0, L.chartSeries);
  const names = fitDistinct(
    inputs.map((s) => s.name),
    L.chartSeriesName,
  );
  const { fit, categories } = axisOf(model, inputs);
  const order = new Map(categories.map((c, i) => [c, i]));
  const series: ChartSeries[] = [];
  for (const [index, input] of inputs.entries()) {
    const byLabel = new Map<Mrkdwn, number>();
    for (const p of input.points) {
      const label = fit.get(p.label);
      if (isFigure(p.value) && label !== undefined) byLabel.set(label, p.value);
    }
    const data = [...byLabel]
      .map(([label, value]) => ({ label, value }))
      .sort((a, b) => order.get(a.label)! - order.get(b.label)!);
    if (data.length > 0) series.push({ name: names[index]!, data });
  }
  const omitted = model.series.length - inputs.length;
  const text = chartText(
    title,
    series.map((s) => mrkdwn`${s.name} ${describePoints(s.data)}`),
    omitted,
  );
  if (series.length === 0) return { block: undefined, text, omitted };
  const axis = {
    categories,
    ...(model.xLabel ? { x_label: truncatePlain(model.xLabel, L.chartAxisLabel) } : {}),
    ...(model.yLabel ? { y_label: truncatePlain(model.yLabel, L.chartAxisLabel) } : {}),
  };
  return {
    block: {
      type: 'data_visualization',
      ...(model.blockId ? { block_id: model.blockId } : {}),
      title,
      chart: { type: model.type, series, axis_config: axis },
    },
    text,
    omitted,
  };
}

/**
 * A pie of the slices above 0, largest first; past 6, the smallest are folded into one
 * "Other" slice, so the pie still adds up to the whole.
 */
export function pieChart(model: PieChartModel): NativeChart {
  const title = truncatePlain(shown(model.title), L.chartTitle);
  const positive = model.segments
    .filter((s): s is { label: Mrkdwn; value: number } => isFigure(s.value) && s.value > 0)
    .sort((a, b) => b.value - a.value);
  const folded = positive.length > L.pieSegments;
  const slices = folded
    ? [
        ...positive.slice(0, L.pieSegments - 1),
        {
          label: escapeMrkdwn('Other'),
          value: positive.slice(L.pieSegments - 1).reduce((sum, s) => sum + s.value, 0),
        },
      ]
    : positive;
  const names = fitDistinct(
    slices.map((s) => s.label),
    L.chartLabel,
  );
  const segments = slices.map((s, i) => ({ label: names[i]!, value: s.value }));
  const total = segments.reduce((sum, s) => sum + s.value, 0);
  const omitted = folded ? positive.length - (L.pieSegments - 1) : 0;
  const text = chartText(
    title,
    segments.map(
      (s) =>
        mrkdwn`${s.label} ${escapeMrkdwn(countText(s.value))} (${escapeMrkdwn(percentText((s.value / total) * 100))})`,
    ),
    0,
  );
  if (segments.length === 0) return { block: undefined, text, omitted };
  return {
    block: {
      type: 'data_visualization',
      ...(model.blockId ? { block_id: model.blockId } : {}),
      title,
      chart: { type: 'pie', segments },
    },
    text,
    omitted,
  };
}
