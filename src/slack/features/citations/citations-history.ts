/** `citations <brand> history [--days N]`: GET /get-citations (view=history). */

import { citationsHistoryChart } from '../../../charts/citations-history-chart.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { withNativeChart } from '../../kit/chart-reply.js';
import { withChartButton } from '../../views/chart-button.js';
import { citationSwitcher } from './citation-switcher.js';
import { type CitationViewArgs, noExtraWords } from './citation-view-args.js';
import { CITATIONS_CHART_VIEW, citationsChartInput } from './citations-chart-action.js';
import { citationsHistoryReply } from './citations-history-view.js';

export async function runCitationsHistory(a: CitationViewArgs): Promise<void> {
  noExtraWords(a, 'history');
  const days = a.flags.int(7, 365, 'days');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCitationHistory({
    brandId: brand.id,
    ...(days !== undefined ? { days } : {}),
  });
  const nowMs = a.ctx.deps.clock.now();
  const reply = withNativeChart(
    citationsHistoryReply({ brand, days, response, nowMs }),
    citationsHistoryChart(citationsChartInput(brand.name, response, nowMs)),
  );
  const shared = withShareButton(reply, commandText('citations', brand.id, ['history'], { days }), [
    citationSwitcher({ brandId: brand.id, current: 'history', days }),
  ]);
  await a.ctx.respond(withChartButton(shared, CITATIONS_CHART_VIEW, { brandId: brand.id, days }));
}
