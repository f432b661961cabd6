/**
 * A `data_visualization` block as the terminal can show it, with its numbers: the title
 * and the kind of chart, then
 * - a pie, or a bar chart of one series: one bar per category, its figure beside it;
 * - a line or area chart, or bars of several series: one sparkline per series over the
 *   categories (a gap where a series has no point), its first and latest figure, low and
 *   high, and the first and last category under them.
 * Every series is drawn against the same scale, from 0 (or the lowest figure when below
 * 0) to the highest, so two series compare as they do in Slack.
 */
import { countText, percentText } from '../../../figures/number-text.js';
import { visibleWidth } from '../../../terminal/style.js';
import { decodeEntities, type Json, list, rec, str } from './block-json.js';
import type { RenderContext } from './render-context.js';

const BAR_WIDTH = 24;
const SPARKS = '▁▂▃▄▅▆▇█';

interface Point {
  label: string;
  value: number;
}

function readPoints(value: unknown): Point[] {
  return list(value).flatMap((raw) => {
    const p = rec(raw);
    const v = p?.['value'];
    return typeof v === 'number' && Number.isFinite(v)
      ? [{ label: decodeEntities(str(p?.['label']) ?? ''), value: v }]
      : [];
  });
}

const padEnd = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - visibleWidth(s)));

/** One horizontal bar per point, scaled to the largest, the figure (and share) beside it. */
function bars(points: readonly Point[], share: boolean): string[] {
  const max = Math.max(0, ...points.map((p) => p.value));
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const labelWidth = Math.max(0, ...points.map((p) => visibleWidth(p.label)));
  return points.map((p) => {
    const length = max > 0 ? Math.max(p.value > 0 ? 1 : 0, Math.round((p.value / max) * BAR_WIDTH)) : 0;
    const figure = share
      ? `${countText(p.value)} (${percentText((p.value / total) * 100)})`
      : countText(p.value);
    return `  ${padEnd(p.label, labelWidth)}  ${'█'.repeat(length)} ${figure}`;
  });
}

function sparkline(
  points: readonly Point[],
  categories: readonly string[],
  low: number,
  high: number,
): string {
  const byLabel = new Map(points.map((p) => [p.label, p.value]));
  return categories
    .map((c) => {
      const v = byLabel.get(c);
      if (v === undefined) return ' ';
      const step = high > low ? Math.round(((v - low) / (high - low)) * (SPARKS.length - 1)) : 0;
      return SPARKS[step];
    })
    .join('');
}

function sparklines(chart: Json, ctx: RenderContext): string[] {
  const categories = list(rec(chart['axis_config'])?.['categories']).map((c) =>
    decodeEntities(typeof c === 'string' ? c : ''),
  );
  const series = list(chart['series']).map((raw) => ({
    name: decodeEntities(str(rec(raw)?.['name']) ?? ''),
    points: readPoints(rec(raw)?.['data']),
  }));
  const values = series.flatMap((s) => s.points.map((p) => p.value));
  const low = Math.min(0, ...values);
  const high = Math.max(low, ...values);
  const nameWidth = Math.max(0, ...series.map((s) => visibleWidth(s.name)));
  const lines = series.map((s) => {
    const vs = s.points.map((p) => p.value);
    const first = s.points[0];
    const last = s.points.at(-1);
    const figures =
      first && last
        ? `${countText(first.value)} → ${countText(last.value)} (low ${countText(Math.min(...vs))}, high ${countText(Math.max(...vs))})`
        : 'no data';
    return `  ${padEnd(s.name, nameWidth)}  ${sparkline(s.points, categories, low, high)}  ${figures}`;
  });
  if (categories.length > 1) {
    lines.push(
      ctx.style.dim(
        `  ${' '.repeat(nameWidth)}  ${categories[0]} … ${categories.at(-1)} (${categories.length})`,
      ),
    );
  }
  return lines;
}

export function renderChart(block: Json, ctx: RenderContext): string[] {
  const chart = rec(block['chart']) ?? {};
  const type = str(chart['type']) ?? 'unknown';
  const title = ctx.style.bold(decodeEntities(str(block['title']) ?? ''));
  const head = `${title} ${ctx.style.dim(`(${type} chart)`)}`;
  if (type === 'pie') return [head, ...bars(readPoints(chart['segments']), true)];
  const series = list(chart['series']);
  if (type === 'bar' && series.length === 1)
    return [head, ...bars(readPoints(rec(series[0])?.['data']), false)];
  return [head, ...sparklines(chart, ctx)];
}
