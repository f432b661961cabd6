/**
 * One page's AI crawler visits per day (the page drawer, GET /crawler/page-details
 * `traffic.series`): a bar per day, in the house style, and the same days for Slack to draw.
 */
import type { TopLevelSpec } from 'vega-lite';
import { formatCount } from '../figures/format-number.js';
import { figureName } from '../figures/glossary.js';
import type { ChartSpec } from './chart-spec.js';
import { type DayValue, describeSeries, finiteDays } from './describe-series.js';
import { AXIS_DATE_FORMAT, BRAND_COLOUR, fileSlug, fullSizeFrame } from './house-style.js';
import { daySeries, nativeModel } from './native-series.js';

export interface PageTrafficChartInput {
  /** The page as people know it: its title, else its path or URL. */
  page: string;
  days: readonly DayValue[];
}

export function pageTrafficChart(input: PageTrafficChartInput): ChartSpec {
  const days = finiteDays(input.days);
  const total = days.reduce((sum, d) => sum + d.value, 0);
  const visits = figureName('aiCrawlerVisits');
  const title = `${visits} · ${input.page}`;
  const altText = `${input.page} ${visits.toLowerCase()}: ${formatCount(total)} in total, ${describeSeries(days)}.`;
  const vegaLite: TopLevelSpec = {
    ...fullSizeFrame(title, `${formatCount(total)} visits`),
    data: { values: days },
    mark: { type: 'bar', color: BRAND_COLOUR },
    encoding: {
      x: {
        field: 'date',
        type: 'ordinal',
        timeUnit: 'utcyearmonthdate',
        title: null,
        axis: { format: AXIS_DATE_FORMAT, labelOverlap: 'greedy' },
      },
      y: { field: 'value', type: 'quantitative', title: 'Visits', scale: { zero: true } },
    },
  };
  return {
    kind: 'page-traffic',
    title,
    altText,
    fileName: `page-visits-${fileSlug(input.page, 'page')}${days.at(-1) ? `-${days.at(-1)!.date}` : ''}.png`,
    vegaLite,
    native: nativeModel(
      'bar',
      title,
      [daySeries(visits, days)],
      days.map((d) => d.date),
      'Visits',
    ),
  };
}
