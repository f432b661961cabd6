/**
 * One page's AI crawler visits per day (the page drawer, GET /crawler/page-details
 * `traffic.series`): a bar per day, in the house style, and the same days for Slack to draw.
 */
import type { TopLevelSpec } from 'vega-lite';
import { periodText } from '../figures/day-text.js';
import { figureName, figureWords } from '../figures/glossary.js';
import { countText } from '../figures/number-text.js';
import { counted } from '../figures/plural.js';
import { BLOCK_KIT_LIMITS as L } from '../messages/block-kit-limit-table.js';
import type { ChartSpec } from './chart-spec.js';
import { type DayValue, describeSeries, finiteDays } from './describe-series.js';
import { AXIS_DATE_FORMAT, BRAND_COLOUR, fileSlug, fullSizeFrame } from './house-style.js';
import { daySeries, nativeModel } from './native-series.js';

interface PageTrafficChartInput {
  /** The page as people know it: its title, else its path or URL. */
  page: string;
  days: readonly DayValue[];
}

/**
 * The last days Slack can draw (its chart takes 20 points), so the image, the chart Slack
 * draws and the sentence beside them cover the same days; the drawer's text gives the whole
 * range and its total.
 */
export function pageTrafficChart(input: PageTrafficChartInput): ChartSpec {
  const all = finiteDays(input.days);
  const days = all.slice(-L.chartPoints);
  const total = days.reduce((sum, d) => sum + d.value, 0);
  const visits = figureName('aiCrawlerVisits');
  const title = `${visits} · ${input.page}`;
  const period = days.length > 0 ? periodText(days.length, days.at(-1)!.date) : counted(0, 'day');
  // The total only when the chart has every day: else it would be a second total beside the drawer's.
  const sum = days.length === all.length ? `${countText(total)} in total, ` : '';
  const altText = `${input.page} ${figureWords('aiCrawlerVisits')}, ${period}: ${sum}${describeSeries(days)}.`;
  const vegaLite: TopLevelSpec = {
    ...fullSizeFrame(title, `${countText(total)} visits`),
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
