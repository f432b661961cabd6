/** `crawler <brand> [range] [--compare]`: GET /crawler/overview. */

import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { withChartButton } from '../../views/chart-button.js';
import { CRAWLER_CHART_VIEW } from './crawler-chart-action.js';
import { crawlerOverviewReply } from './crawler-overview-view.js';
import { rangeWord } from './crawler-range.js';
import { crawlerSwitcher } from './crawler-switcher.js';
import type { CrawlerViewArgs } from './crawler-view-args.js';

export async function runCrawlerOverview(a: CrawlerViewArgs): Promise<void> {
  const compare = a.flags.bool('compare');
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCrawlerOverview(
    { brandId: brand.id, ...a.range, ...(compare ? { compareTo: 'previous_period' as const } : {}) },
    { lane: a.ctx.lane },
  );
  const share = commandText('crawler', brand.id, rangeWord(a.range), { compare });
  const shared = withShareButton(crawlerOverviewReply({ brand, response }), share, [
    crawlerSwitcher(brand.id, { tab: 'overview' }, a.range),
  ]);
  await a.ctx.respond(
    withChartButton(shared, CRAWLER_CHART_VIEW, {
      brandId: brand.id,
      range: a.range,
      ...(compare ? { compareTo: 'previous_period' } : {}),
    }),
  );
}
