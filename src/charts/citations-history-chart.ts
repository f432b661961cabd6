/**
 * Citations over the selected days: the brand's line, thick and blue, against its top
 * competitors in thinner muted lines (`citations <brand> history`).
 */
import type { TopLevelSpec } from 'vega-lite';
import { counted } from '../figures/plural.js';
import type { ChartSpec } from './chart-spec.js';
import { type DayValue, daySpan, describeChange, describeSeries, finiteDays } from './describe-series.js';
import {
  AXIS_DATE_FORMAT,
  BRAND_COLOUR,
  BRAND_STROKE_WIDTH,
  COMPETITOR_COLOURS,
  COMPETITOR_OPACITY,
  COMPETITOR_STROKE_WIDTH,
  fileSlug,
  fullSizeFrame,
} from './house-style.js';

export interface CitationsHistoryChartInput {
  brand: string;
  days: readonly DayValue[];
  competitors: readonly { name: string; days: readonly DayValue[] }[];
}

/** More lines than this turn a chart into spaghetti; the palette has five competitor colours. */
export const MAX_COMPETITORS = COMPETITOR_COLOURS.length;

function total(days: readonly DayValue[]): number {
  return finiteDays(days).reduce((sum, d) => sum + d.value, 0);
}

/** The most-cited competitors first; a competitor named like the brand is told apart. */
function topCompetitors(input: CitationsHistoryChartInput): { name: string; days: DayValue[] }[] {
  const seen = new Set([input.brand]);
  return [...input.competitors]
    .map((c) => ({ name: c.name, days: finiteDays(c.days), total: total(c.days) }))
    .filter((c) => c.days.length > 0)
    .sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, MAX_COMPETITORS)
    .map((c) => {
      let name = c.name;
      while (seen.has(name)) name = `${name} (competitor)`;
      seen.add(name);
      return { name, days: c.days };
    });
}

export function citationsHistoryChart(input: CitationsHistoryChartInput): ChartSpec {
  const brandDays = finiteDays(input.days);
  const competitors = topCompetitors(input);
  const allDates = [...brandDays, ...competitors.flatMap((c) => c.days)].map((d) => d.date);
  const span = daySpan(allDates);
  const names = [input.brand, ...competitors.map((c) => c.name)];
  const values = [
    ...brandDays.map((d) => ({ date: d.date, series: input.brand, value: d.value, brand: true })),
    ...competitors.flatMap((c) =>
      c.days.map((d) => ({ date: d.date, series: c.name, value: d.value, brand: false })),
    ),
  ];
  const title = `Citations · ${input.brand}`;
  const altParts = [
    `${input.brand} citations${span > 0 ? ` over ${counted(span, 'day')}` : ''}: ${describeSeries(brandDays)}`,
  ];
  for (const c of competitors) altParts.push(`${c.name} ${describeChange(c.days)}`);
  const lastDate = [...allDates].sort().at(-1);

  const vegaLite: TopLevelSpec = {
    ...fullSizeFrame(
      title,
      competitors.length > 0
        ? `${counted(span, 'day')} · the brand against its ${competitors.length === 1 ? 'top competitor' : `top ${competitors.length} competitors`}`
        : counted(span, 'day'),
    ),
    data: { values },
    encoding: {
      x: {
        field: 'date',
        type: 'temporal',
        timeUnit: 'utcyearmonthdate',
        title: null,
        axis: { format: AXIS_DATE_FORMAT, tickCount: Math.min(Math.max(span, 1), 8) },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        title: 'Citations',
        scale: { zero: true },
        axis: { tickMinStep: 1 },
      },
      color: {
        field: 'series',
        type: 'nominal',
        scale: { domain: names, range: [BRAND_COLOUR, ...COMPETITOR_COLOURS.slice(0, competitors.length)] },
        sort: names,
      },
    },
    // Competitors first, the brand last: later layers are drawn on top.
    layer: [
      {
        transform: [{ filter: '!datum.brand' }],
        mark: {
          type: 'line',
          strokeWidth: COMPETITOR_STROKE_WIDTH,
          opacity: COMPETITOR_OPACITY,
          point: { size: 20, filled: true, opacity: COMPETITOR_OPACITY },
        },
      },
      {
        transform: [{ filter: 'datum.brand' }],
        mark: { type: 'line', strokeWidth: BRAND_STROKE_WIDTH, point: { size: 50, filled: true } },
      },
    ],
  };

  return {
    kind: 'citations-history',
    title,
    altText: `${altParts.join('; ')}.`,
    fileName: `citations-${fileSlug(input.brand, 'brand')}${lastDate ? `-${lastDate}` : ''}.png`,
    vegaLite,
  };
}
