/**
 * "Post chart to channel" on the `crawler …` overview (vis:chart:crawler): visits by day
 * and by crawler over the reply's range, as an image in the channel. A `--compare` reply's
 * chart also draws the previous period: the overview gives only its change in percent, so
 * the previous period's own days are one more overview request (a custom range).
 */
import type { CrawlerOverview } from '../../../api/schemas/crawler.js';
import { type CrawlerVisitsChartInput, crawlerVisitsChart } from '../../../charts/crawler-visits-chart.js';
import { addDays } from '../../../utc-days.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { postChart } from '../../actions/post-chart.js';
import { CHART_ACTION_PREFIX } from '../../views/chart-button.js';

export const CRAWLER_CHART_VIEW = 'crawler';

export function crawlerChartInput(
  brand: string,
  overview: CrawlerOverview,
  previous?: CrawlerOverview,
): CrawlerVisitsChartInput {
  return {
    brand,
    ...(previous
      ? {
          previous: previous.chart.series.map((point) => ({
            date: point.date.slice(0, 10),
            visits: point.count,
          })),
        }
      : {}),
    byDay: overview.chart.series.flatMap((point) =>
      Object.entries(point.by_crawler).map(([crawler, visits]) => ({
        date: point.date.slice(0, 10),
        crawler,
        visits,
      })),
    ),
  };
}

export const crawlerChartAction: ActionHandler = {
  prefix: `${CHART_ACTION_PREFIX}${CRAWLER_CHART_VIEW}`,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const range = v.optionalRange('range');
    const compareTo = v.optionalOneOf('compareTo', ['previous_period'] as const);
    const brand = await ctx.resolveBrand(v.string('brandId'));
    postChart(ctx, async () => {
      const overview = await ctx.deps.api.getCrawlerOverview({ brandId: brand.id, ...range });
      const { start, days } = overview.range;
      const previous = compareTo
        ? await ctx.deps.api.getCrawlerOverview({
            brandId: brand.id,
            rangePreset: 'custom',
            startDate: addDays(start.slice(0, 10), -days),
            endDate: addDays(start.slice(0, 10), -1),
          })
        : undefined;
      return crawlerVisitsChart(crawlerChartInput(brand.name, overview, previous));
    });
  },
};
