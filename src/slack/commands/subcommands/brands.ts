import { brandListReply } from '../../views/brand-list-view.js';
import type { Subcommand } from '../subcommand.js';

export const brands: Subcommand = {
  name: 'brands',
  aliases: ['list'],
  group: 'Brands',
  usage: '/visibility brands',
  summary: 'List the brands the API key sees: role, website, primary market, active.',
  examples: ['/visibility brands'],
  async run(ctx) {
    if (ctx.args.positional.length > 0) throw ctx.usageError('`brands` takes no arguments.');
    // Fresh list, not the brief cache: this command is how people check for a new brand.
    ctx.deps.brandCache.invalidate();
    await ctx.respond(brandListReply(await ctx.deps.brandCache.list({ lane: ctx.lane })));
  },
};
