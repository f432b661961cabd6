/**
 * The small picture under a brand in the daily digest: the last 7 days of citations and
 * of AI crawler visits as two bar panels side by side, each day's figure written on its
 * bar, so the trend reads at a glance in a thumbnail.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import type { LayerSpec } from 'vega-lite/types_unstable/spec/layer.js';
import { formatCount } from '../figures/format-number.js';
import type { ChartSpec } from './chart-spec.js';
import { type DayValue, describeSeries, finiteDays } from './describe-series.js';
import { AXIS_DATE_FORMAT, BRAND_COLOUR, fileSlug, houseConfig, OKABE_ITO } from './house-style.js';

export interface DigestBrandChartInput {
  brand: string;
  citations: readonly DayValue[];
  crawlerVisits: readonly DayValue[];
}

export const DIGEST_DAYS = 7;
/** Two panels fit the 800-wide house size with the gap and padding. */
export const DIGEST_PANEL_WIDTH = 340;
export const DIGEST_PANEL_HEIGHT = 150;

function lastDays(points: readonly DayValue[]): DayValue[] {
  return finiteDays(points).slice(-DIGEST_DAYS);
}

function panel(title: string, days: readonly DayValue[], colour: string): LayerSpec<Field> {
  return {
    title: { text: title, fontSize: 14, anchor: 'start' as const },
    width: DIGEST_PANEL_WIDTH,
    height: DIGEST_PANEL_HEIGHT,
    data: { values: days.map((d) => ({ date: d.date, value: d.value, label: formatCount(d.value) })) },
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

export function digestBrandChart(input: DigestBrandChartInput): ChartSpec {
  const citations = lastDays(input.citations);
  const visits = lastDays(input.crawlerVisits);
  const visitsTotal = visits.reduce((sum, d) => sum + d.value, 0);
  const title = `${input.brand} · last ${DIGEST_DAYS} days`;
  const altText =
    `${input.brand}, last ${DIGEST_DAYS} days: citations ${describeSeries(citations)}; ` +
    `AI crawler visits ${visits.length > 0 ? `${formatCount(visitsTotal)} in total, ${describeSeries(visits)}` : 'no data'}.`;
  const lastDate = [...citations, ...visits]
    .map((d) => d.date)
    .sort()
    .at(-1);

  const vegaLite: TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: { ...houseConfig, concat: { spacing: 40 } },
    title: { text: title, fontSize: 16 },
    hconcat: [
      panel('Citations', citations, BRAND_COLOUR),
      panel('AI crawler visits', visits, OKABE_ITO.bluishGreen),
    ],
  };

  return {
    kind: 'digest-brand',
    title,
    altText,
    fileName: `digest-${fileSlug(input.brand, 'brand')}${lastDate ? `-${lastDate}` : ''}.png`,
    vegaLite,
  };
}
