/**
 * Brand mentions over the selected days (`citations <brand> history`): the brand's line,
 * thick and blue, against its top competitors' mentions in thinner muted lines. Both count
 * the same thing, AI answers naming the brand (the glossary's brand and competitor
 * mentions), so the lines compare like with like; the chart says "mentions", never
 * "citations", which count something else.
 */
import type { TopLevelSpec } from 'vega-lite';
import { periodText } from '../figures/day-text.js';
import { figureName, figureWords } from '../figures/glossary.js';
import { counted } from '../figures/plural.js';
import { BLOCK_KIT_LIMITS as L } from '../messages/block-kit-limit-table.js';
import type { ChartSpec } from './chart-spec.js';
import { type DayValue, daySpan, describeChange, describeSeries, finiteDays } from './describe-series.js';
import { evenlySpaced } from './evenly-spaced.js';
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
import { daySeries, nativeModel } from './native-series.js';

export interface CitationsHistoryChartInput {
  brand: string;
  /** The brand's mentions per day (history `brand_mentions`). */
  days: readonly DayValue[];
  /** Each competitor's mentions per day (history `competitor_time_series`). */
  competitors: readonly { name: string; days: readonly DayValue[] }[];
  /** Now, so a history whose latest day is well behind says so in the subtitle and alt text. */
  nowMs?: number;
}

/** More lines than this turn a chart into spaghetti; the palette has five competitor colours. */
export const MAX_COMPETITORS = COMPETITOR_COLOURS.length;

function total(days: readonly DayValue[]): number {
  return finiteDays(days).reduce((sum, d) => sum + d.value, 0);
}

/** The most-mentioned competitors first; a competitor named like the brand is told apart. */
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

/** The brand's series and its top competitors', over the days the chart shows. */
function chartedSeries(input: CitationsHistoryChartInput) {
  // The days Slack can draw (20 points a series), spread over the whole range with its
  // first and last day, so the image, Slack's own chart and the sentence beside them start
  // and end where the view's trend lines do.
  const kept = new Set(
    evenlySpaced(
      [...new Set([...input.days, ...input.competitors.flatMap((c) => c.days)].map((d) => d.date))].sort(),
      L.chartPoints,
    ),
  );
  const recent = (days: readonly DayValue[]) => days.filter((d) => kept.has(d.date));
  const brandDays = finiteDays(recent(input.days));
  const competitors = topCompetitors({
    ...input,
    competitors: input.competitors.map((c) => ({ name: c.name, days: recent(c.days) })),
  });
  return { brandDays, competitors };
}

/** The chart's alt text: the brand's mentions over the period, then each competitor's change. */
function historyAlt(
  brand: string,
  period: string,
  brandDays: ReturnType<typeof chartedSeries>['brandDays'],
  competitors: ReturnType<typeof chartedSeries>['competitors'],
): string {
  const altParts = [`${brand} ${figureWords('brandMentions')}, ${period}: ${describeSeries(brandDays)}`];
  if (competitors.length > 0)
    altParts.push(
      `${figureName('competitorMentions')}: ${competitors.map((c) => `${c.name} ${describeChange(c.days)}`).join('; ')}`,
    );
  return `${altParts.join('. ')}.`;
}

export function citationsHistoryChart(input: CitationsHistoryChartInput): ChartSpec {
  const { brandDays, competitors } = chartedSeries(input);
  const allDates = [...brandDays, ...competitors.flatMap((c) => c.days)].map((d) => d.date);
  const span = daySpan(allDates);
  const names = [input.brand, ...competitors.map((c) => c.name)];
  const values = [
    ...brandDays.map((d) => ({ date: d.date, series: input.brand, value: d.value, brand: true })),
    ...competitors.flatMap((c) =>
      c.days.map((d) => ({ date: d.date, series: c.name, value: d.value, brand: false })),
    ),
  ];
  const lastDate = [...allDates].sort().at(-1);
  const title = `${figureName('brandMentions')} · ${input.brand}`;
  const period = lastDate && span > 0 ? periodText(span, lastDate, input.nowMs) : counted(span, 'day');
  const altText = historyAlt(input.brand, period, brandDays, competitors);

  const vegaLite: TopLevelSpec = {
    ...fullSizeFrame(
      title,
      competitors.length > 0
        ? `${period} · AI answers naming ${input.brand} against ${competitors.length === 1 ? 'its top competitor' : `its top ${competitors.length} competitors`}`
        : `${period} · AI answers naming ${input.brand}`,
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
        title: 'Mentions (AI answers naming each brand)',
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
    altText,
    fileName: `mentions-${fileSlug(input.brand, 'brand')}${lastDate ? `-${lastDate}` : ''}.png`,
    vegaLite,
    native: nativeModel(
      'line',
      title,
      [daySeries(input.brand, brandDays), ...competitors.map((c) => daySeries(c.name, c.days))],
      allDates,
      'Mentions',
    ),
  };
}
