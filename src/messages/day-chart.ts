/**
 * Day series (`YYYY-MM-DD` → figure) as a Slack-drawn chart. A chart holds at most 20
 * points per series, so a longer span (30 days of history, a month of AI Pages usage) is
 * either cut to its last 20 days or grouped into periods of consecutive days, counted
 * from the latest day so the newest period is whole: 30 days become 15 periods of 2.
 * A period's figure is the sum of its days (visits, citations) or its latest day's (a
 * running total such as AI Pages used this month), whichever the figure means.
 */

import { dateOfDay, dayNumber } from '../utc-days.js';
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import { escapeMrkdwn, type Mrkdwn } from './mrkdwn.js';
import { type NativeChart, type PointInput, seriesChart } from './native-chart.js';

interface DayValue {
  /** `YYYY-MM-DD` */
  date: string;
  value: number | null | undefined;
}

interface DaySeriesInput {
  name: Mrkdwn;
  days: readonly DayValue[];
}

/**
 * What a span longer than 20 days becomes: its last 20 days (`cut`), or periods whose
 * figure is the sum of their days (`sum`) or their latest day's figure (`latest`).
 */
type LongSpan = 'cut' | 'sum' | 'latest';

interface DayChartModel {
  type: 'line' | 'bar' | 'area';
  title: Mrkdwn;
  series: readonly DaySeriesInput[];
  longSpan: LongSpan;
  /** The one date style the caller shows days in ("1 Nov"); a period reads "1 Nov–2 Nov". */
  dayLabel: (date: string) => string;
  xLabel?: Mrkdwn;
  yLabel?: Mrkdwn;
  blockId?: string;
}

interface Period {
  first: number;
  last: number;
  label: Mrkdwn;
}

const isFigure = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** The periods covering `first`..`last` (day numbers), oldest first, at most 20. */
function periodsOf(
  first: number,
  last: number,
  longSpan: LongSpan,
  label: (date: string) => string,
): Period[] {
  const span = last - first + 1;
  const size = longSpan === 'cut' || span <= L.chartPoints ? 1 : Math.ceil(span / L.chartPoints);
  const count = Math.min(L.chartPoints, Math.ceil(span / size));
  return Array.from({ length: count }, (_, k) => {
    const end = last - (count - 1 - k) * size;
    const start = Math.max(first, end - size + 1);
    const text =
      start === end ? label(dateOfDay(end)) : `${label(dateOfDay(start))}–${label(dateOfDay(end))}`;
    return { first: start, last: end, label: escapeMrkdwn(text) };
  });
}

function pointsOf(days: readonly DayValue[], periods: readonly Period[], longSpan: LongSpan): PointInput[] {
  const byDay = new Map<number, number>();
  for (const d of days) if (isFigure(d.value)) byDay.set(dayNumber(d.date), d.value);
  return periods.map((p) => {
    const values: number[] = [];
    for (let day = p.first; day <= p.last; day += 1) {
      const v = byDay.get(day);
      if (v !== undefined) values.push(v);
    }
    // A period without a figure is a gap, not a zero.
    const value =
      values.length === 0
        ? undefined
        : longSpan === 'sum'
          ? values.reduce((a, b) => a + b, 0)
          : values.at(-1);
    return { label: p.label, value };
  });
}

/** A chart of day series over the days they cover, at most 20 points each (cut or grouped). */
export function dayChart(model: DayChartModel): NativeChart {
  const days = model.series
    .flatMap((s) => s.days)
    .filter((d) => isFigure(d.value))
    .map((d) => dayNumber(d.date))
    .filter((n) => !Number.isNaN(n));
  const periods =
    days.length === 0 ? [] : periodsOf(Math.min(...days), Math.max(...days), model.longSpan, model.dayLabel);
  return seriesChart({
    type: model.type,
    title: model.title,
    categories: periods.map((p) => p.label),
    series: model.series.map((s) => ({ name: s.name, points: pointsOf(s.days, periods, model.longSpan) })),
    ...(model.xLabel ? { xLabel: model.xLabel } : {}),
    ...(model.yLabel ? { yLabel: model.yLabel } : {}),
    ...(model.blockId ? { blockId: model.blockId } : {}),
  });
}
