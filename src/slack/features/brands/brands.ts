import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandListReply } from './brand-list-view.js';

export const brands: Subcommand = {
  name: 'brands',
  aliases: ['list'],
  group: 'Brands',
  usage: '/visibility brands',
  summary: 'List the brands the API key sees: role, website, primary market, active.',
  examples: ['/visibility brands'],
  async run(ctx) {
    if (ctx.args.positional.length > 0) throw ctx.usageError(mrkdwn`\`brands\` takes no arguments.`);
    // Fresh list, not the brief cache: this command is how people check for a new brand.
    // A fetch already in flight is fresh enough, and sharing it keeps a burst of `brands`
    // from queueing one GET /get-brands each.
    await ctx.respond(brandListReply(await ctx.deps.brandCache.refresh()));
  },
};
