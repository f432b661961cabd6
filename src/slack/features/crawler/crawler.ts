/**
 * `/visibility crawler <brand> …`: AI crawler analytics. Without a verb, the overview for
 * a range; `live`, `pages` and `access` show the dashboard tabs (undocumented payloads,
 * rendered generically, with More and drawer buttons); `ping`, `submit`, `submit-status`
 * and `preview-fix` are the service's crawler actions.
 */
import type { Subcommand } from '../../commands/subcommand.js';
import { unknownViewError } from '../../commands/unknown-view.js';
import { runCrawlerAccess } from './crawler-access.js';
import { parseCrawlerArgs } from './crawler-args.js';
import { runCrawlerDetails } from './crawler-details.js';
import { runCrawlerList } from './crawler-list.js';
import { runCrawlerOverview } from './crawler-overview.js';
import { runCrawlerPing } from './crawler-ping.js';
import { runCrawlerPreviewFix } from './crawler-preview-fix.js';
import { runCrawlerSubmit } from './crawler-submit.js';
import { runCrawlerSubmitStatus } from './crawler-submit-status.js';
import { type CrawlerVerb, crawlerVerbs } from './crawler-usages.js';
import { type CrawlerViewArgs, crawlerViewArgs } from './crawler-view-args.js';

const VIEWS: Record<CrawlerVerb, (a: CrawlerViewArgs) => Promise<void>> = {
  overview: runCrawlerOverview,
  live: (a) => runCrawlerList(a, 'live'),
  pages: (a) => runCrawlerList(a, 'pages'),
  access: runCrawlerAccess,
  details: runCrawlerDetails,
  ping: runCrawlerPing,
  submit: runCrawlerSubmit,
  'submit-status': runCrawlerSubmitStatus,
  'preview-fix': runCrawlerPreviewFix,
};

export const crawler: Subcommand = {
  name: 'crawler',
  aliases: ['crawlers', 'bots'],
  group: 'Crawler',
  usage:
    '/visibility crawler <brand> [24h|7d|30d|90d|YYYY-MM-DD..YYYY-MM-DD or --range …] [--compare] | live | pages | access | details page|path|bot <id> | ping | submit <url …> | submit-status | preview-fix <finding id>',
  summary:
    'AI crawler visits: hero figures, daily trend, crawlers and top pages for a range; the live, pages and access tabs with filters and paging; the verification ping, URL submission and access-fix previews.',
  examples: [
    '/visibility crawler "Acme Analytics" 7d --compare',
    '/visibility crawler "Acme Analytics" 2025-01-01..2025-01-31',
    '/visibility crawler "Acme Analytics" live --view sessions --limit 10',
    '/visibility crawler "Acme Analytics" pages --lens bots --intent search',
    '/visibility crawler "Acme Analytics" access',
    '/visibility crawler "Acme Analytics" submit https://www.acmeanalytics.com/pricing',
    '/visibility crawler "Acme Analytics" submit-status',
    '/visibility crawler "Acme Analytics" ping',
  ],
  booleanFlags: ['compare'],
  async run(ctx) {
    const args = parseCrawlerArgs(ctx.args.positional);
    if (args.brandWords.length > 0) {
      const raw = ctx.args.raw?.slice(0, args.brandWords.length);
      const typo = await unknownViewError(ctx, args.brandWords, raw, crawlerVerbs, crawler.usage);
      if (typo) throw typo;
    }
    await VIEWS[args.verb](crawlerViewArgs(ctx, args));
  },
};
