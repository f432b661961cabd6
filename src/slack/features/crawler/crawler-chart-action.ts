/**
 * "Post chart to channel" on the `crawler …` overview (vis:chart:crawler): visits by day
 * and by crawler over the reply's range, as an image in the channel.
 */
import type { CrawlerOverview } from '../../../api/schemas/crawler.js';
import { type CrawlerVisitsChartInput, crawlerVisitsChart } from '../../../charts/crawler-visits-chart.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { postChart } from '../../post-chart.js';
import { CHART_ACTION_PREFIX } from '../../views/chart-button.js';

export const CRAWLER_CHART_VIEW = 'crawler';

export function crawlerChartInput(brand: string, overview: CrawlerOverview): CrawlerVisitsChartInput {
  return {
    brand,
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
    const brand = await ctx.resolveBrand(v.string('brandId'));
    postChart(ctx, async () => {
      const overview = await ctx.deps.api.getCrawlerOverview(
        { brandId: brand.id, ...range },
        { lane: ctx.lane },
      );
      return crawlerVisitsChart(crawlerChartInput(brand.name, overview));
    });
  },
};
