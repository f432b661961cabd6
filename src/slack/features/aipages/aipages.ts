/**
 * `/visibility aipages <brand>`: Hosted AI Pages status, configuration and this month's
 * usage (GET /ai-pages). No entitlement (403) becomes "Your plan does not include AI
 * Pages" in explain-error.ts; not set up (config null) explains how to set it up.
 */

import { aiPagesUsageChart } from '../../../charts/ai-pages-usage-chart.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { commandText } from '../../commands/args/command-text.js';
import { flagReader } from '../../commands/args/flag-reader.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { withNativeChart } from '../../kit/chart-reply.js';
import { withChartButton } from '../../views/chart-button.js';
import { aiPagesReply } from './ai-pages-view.js';
import { AIPAGES_CHART_VIEW, aiPagesChartInput, storedUsageSamples } from './aipages-chart-action.js';

const USAGE = '/visibility aipages <brand>';

export const aipages: Subcommand = {
  name: 'aipages',
  aliases: ['ai-pages', 'prism'],
  group: 'AI Pages',
  usage: USAGE,
  summary:
    'Hosted AI Pages for a brand: enabled, domain, platform, features, crawlers, and the month’s usage with its reset date.',
  examples: ['/visibility aipages "Acme Analytics"', '/visibility aipages "Globex Corporation"'],
  async run(ctx) {
    flagReader(ctx.args.flags, (m) => new UserError(UserErrorCode.BadArguments, m, USAGE)).rejectUnknown();
    // The whole text is the brand: `aipages Acme Analytics` needs no quotes.
    const token = ctx.args.positional.length > 0 ? ctx.args.positional.join(' ') : undefined;
    const brand = await ctx.resolveBrand(token);
    const record = await ctx.deps.api.getAiPages({ brandId: brand.id });
    const stored = await storedUsageSamples(ctx.deps.store, brand.id);
    const input = record.usage && aiPagesChartInput(brand.name, record.usage, ctx.deps.clock.now(), stored);
    const reply = input
      ? withNativeChart(aiPagesReply(brand, record), aiPagesUsageChart(input))
      : aiPagesReply(brand, record);
    const shared = withShareButton(reply, commandText('aipages', brand.id));
    await ctx.respond(
      record.usage ? withChartButton(shared, AIPAGES_CHART_VIEW, { brandId: brand.id }) : shared,
    );
  },
};
