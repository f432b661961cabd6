/**
 * `crawler <brand> [range] [--compare]`: GET /crawler/overview. The range may also come as
 * `--range`: the crawler alert's button opens the overview on the alert's own days that
 * way (a button passes flags, not words), so both show the same figure.
 */

import { crawlerVisitsChart } from '../../../charts/crawler-visits-chart.js';
import { escapeMrkdwn } from '../../../messages/mrkdwn.js';
import { utcDay } from '../../../utc-days.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import { withNativeChart } from '../../kit/chart-reply.js';
import { withChartButton } from '../../views/chart-button.js';
import { CRAWLER_CHART_VIEW, crawlerChartInput } from './crawler-chart-action.js';
import { crawlerOverviewReply } from './crawler-overview-view.js';
import { parseRange, rangeWord } from './crawler-range.js';
import { crawlerSwitcher } from './crawler-switcher.js';
import type { CrawlerViewArgs } from './crawler-view-args.js';

function rangeOf(a: CrawlerViewArgs) {
  const flag = a.flags.string('range');
  if (flag === undefined) return a.range;
  if (a.range !== undefined) throw a.fail('Give the range once: as a word or as `--range`.');
  const parsed = parseRange(flag);
  if (!parsed.ok) throw a.fail(escapeMrkdwn(parsed.message));
  return parsed.range;
}

export async function runCrawlerOverview(a: CrawlerViewArgs): Promise<void> {
  const compare = a.flags.bool('compare');
  const range = rangeOf(a);
  a.flags.rejectUnknown();
  const brand = await a.ctx.resolveBrand(a.brandToken);
  const response = await a.ctx.deps.api.getCrawlerOverview({
    brandId: brand.id,
    ...range,
    ...(compare ? { compareTo: 'previous_period' as const } : {}),
  });
  const share = commandText('crawler', brand.id, rangeWord(range), { compare });
  const today = utcDay(a.ctx.deps.clock.now());
  const reply = withNativeChart(
    crawlerOverviewReply({ brand, response, today }),
    crawlerVisitsChart(crawlerChartInput(brand.name, response)),
  );
  const shared = withShareButton(reply, share, [crawlerSwitcher(brand.id, { tab: 'overview' }, range)]);
  await a.ctx.respond(
    withChartButton(shared, CRAWLER_CHART_VIEW, {
      brandId: brand.id,
      range,
      ...(compare ? { compareTo: 'previous_period' } : {}),
    }),
  );
}
