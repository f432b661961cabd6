/**
 * "Post chart to channel" on `citations … history` (vis:chart:citations-history): the
 * brand's mentions against its top competitors' over the same days, as an image in the
 * channel. The brand's line is its mentions, the figure the competitors' series count.
 */
import type { CitationHistoryResponse } from '../../../api/schemas/index.js';
import type { CitationsHistoryChartInput } from '../../../charts/citations-history-chart.js';
import { citationsHistoryChart } from '../../../charts/citations-history-chart.js';
import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { postChart } from '../../actions/post-chart.js';
import { CHART_ACTION_PREFIX } from '../../views/chart-button.js';

export const CITATIONS_CHART_VIEW = 'citations-history';

export function citationsChartInput(
  brand: string,
  r: CitationHistoryResponse,
  nowMs?: number,
): CitationsHistoryChartInput {
  return {
    brand,
    ...(nowMs !== undefined ? { nowMs } : {}),
    days: r.brand_time_series.map((p) => ({ date: p.date.slice(0, 10), value: p.brand_mentions })),
    competitors: Object.entries(r.competitor_time_series).map(([name, days]) => ({
      name,
      days: days.map((d) => ({ date: d.date.slice(0, 10), value: d.mentions })),
    })),
  };
}

export const citationsChartAction: ActionHandler = {
  prefix: `${CHART_ACTION_PREFIX}${CITATIONS_CHART_VIEW}`,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const days = v.optionalInt('days', 7, 365);
    const brand = await ctx.resolveBrand(v.string('brandId'));
    postChart(ctx, async () => {
      const response = await ctx.deps.api.getCitationHistory({
        brandId: brand.id,
        ...(days !== undefined ? { days } : {}),
      });
      return citationsHistoryChart(citationsChartInput(brand.name, response, ctx.deps.clock.now()));
    });
  },
};
