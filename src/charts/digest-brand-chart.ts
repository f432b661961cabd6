/**
 * The small picture under a brand in the daily digest: the last 7 days of citations and
 * of AI crawler visits (the glossary's figures, by their names) as two bar panels side by
 * side, each day's figure written on its bar, so the trend reads at a glance in a thumbnail.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import type { LayerSpec } from 'vega-lite/types_unstable/spec/layer.js';
import { dayText, periodText, shortDayText } from '../figures/day-text.js';
import { figureName, figureWords } from '../figures/glossary.js';
import { countText } from '../figures/number-text.js';
import type { ChartSpec } from './chart-spec.js';
import { type DayValue, describeSeries, finiteDays } from './describe-series.js';
import { AXIS_DATE_FORMAT, BRAND_COLOUR, fileSlug, houseConfig, OKABE_ITO } from './house-style.js';
import { daySeries, nativeModel } from './native-series.js';

interface DigestBrandChartInput {
  brand: string;
  citations: readonly DayValue[];
  crawlerVisits: readonly DayValue[];
}

const DIGEST_DAYS = 7;
/** Two panels fit the 800-wide house size with the gap and padding. */
const DIGEST_PANEL_WIDTH = 340;
const DIGEST_PANEL_HEIGHT = 150;

function lastDays(points: readonly DayValue[]): DayValue[] {
  return finiteDays(points).slice(-DIGEST_DAYS);
}

function panel(title: string, days: readonly DayValue[], colour: string): LayerSpec<Field> {
  return {
    title: { text: title, fontSize: 14, anchor: 'start' as const },
    width: DIGEST_PANEL_WIDTH,
    height: DIGEST_PANEL_HEIGHT,
    data: { values: days.map((d) => ({ date: d.date, value: d.value, label: countText(d.value) })) },
    encoding: {
      x: {
        field: 'date',
        type: 'ordinal',
        timeUnit: 'utcyearmonthdate',
        title: null,
        // Seven labels always fit the panel; the estimate behind overlap removal would drop one.
        axis: { format: AXIS_DATE_FORMAT, labelFontSize: 13, labelOverlap: false },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        title: null,
        // Headroom for the figures written above the bars, so both panels line up.
        scale: { domainMin: 0, domainMax: Math.max(1, ...days.map((d) => d.value)) * 1.18, nice: false },
        // Each bar carries its figure and starts at zero, so an axis would only add clutter.
        axis: null,
      },
    },
    layer: [
      { mark: { type: 'bar', color: colour, width: { band: 0.7 } } },
      {
        mark: { type: 'text', baseline: 'bottom', dy: -3, fontSize: 13, color: '#333333' },
        encoding: { text: { field: 'label', type: 'nominal' } },
      },
    ],
  };
}

/** "Citations, 7 days to Nov 27, 2026": a series' glossary name and the days it covers. */
function seriesPeriod(name: string, days: readonly DayValue[]): string {
  const last = days.at(-1);
  return last ? `${name}, ${periodText(days.length, last.date)}` : name;
}

/**
 * The two panels cover the days each figure is complete for: the latest citations snapshot
 * is today's, while crawler visits count whole days, so they end yesterday. When the two
 * periods differ, the title and the alt text say so instead of setting them side by side
 * as if they were the same week.
 */
export function digestBrandChart(input: DigestBrandChartInput): ChartSpec {
  const citations = lastDays(input.citations);
  const visits = lastDays(input.crawlerVisits);
  const visitsTotal = visits.reduce((sum, d) => sum + d.value, 0);
  const citationsName = figureName('citations');
  const visitsName = figureName('aiCrawlerVisits');
  const lastCitation = citations.at(-1)?.date;
  const lastVisit = visits.at(-1)?.date;
  const sameDays = citations.length === visits.length && lastCitation === lastVisit;
  const title =
    lastCitation && (sameDays || !lastVisit)
      ? `${input.brand} · ${periodText(citations.length, lastCitation)}`
      : `${input.brand} · the last ${DIGEST_DAYS} days`;
  const why =
    lastCitation && lastVisit && !sameDays
      ? ` ${visitsName} count whole days up to yesterday, so they end on ${dayText(lastVisit)}; ${figureWords('citations')} end on the service's latest research day, ${dayText(lastCitation)}.`
      : '';
  const altText =
    `${input.brand}. ${seriesPeriod(citationsName, citations)}: ${describeSeries(citations)}. ` +
    `${seriesPeriod(visitsName, visits)}: ${visits.length > 0 ? `${countText(visitsTotal)} in total, ${describeSeries(visits)}` : 'no data'}.${why}`;
  const lastDate = [...citations, ...visits]
    .map((d) => d.date)
    .sort()
    .at(-1);

  const vegaLite: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: { ...houseConfig, concat: { spacing: 40 } },
    title: { text: title, fontSize: 16 },
    hconcat: [
      panel(shortPeriod(citationsName, citations), citations, BRAND_COLOUR),
      panel(shortPeriod(visitsName, visits), visits, OKABE_ITO.bluishGreen),
    ],
  };

  return {
    kind: 'digest-brand',
    title,
    altText,
    fileName: `digest-${fileSlug(input.brand, 'brand')}${lastDate ? `-${lastDate}` : ''}.png`,
    vegaLite,
    native: nativeModel(
      'bar',
      title,
      [daySeries(citationsName, citations), daySeries(visitsName, visits)],
      [...citations, ...visits].map((d) => d.date),
    ),
  };
}

/** A panel's title: the figure's name and the day it ends ("Citations to Nov 27"). */
function shortPeriod(name: string, days: readonly DayValue[]): string {
  const last = days.at(-1);
  return last ? `${name} to ${shortDayText(last.date)}` : name;
}
