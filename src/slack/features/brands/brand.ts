import type { Subcommand } from '../../commands/subcommand.js';
import { fetchBrandDetails } from '../../kit/fetch-brand-details.js';
import { brandDetailReply } from './brand-detail-view.js';

export const brand: Subcommand = {
  name: 'brand',
  aliases: ['show'],
  group: 'Brands',
  usage: '/visibility brand [brand]',
  summary:
    'One brand in full: role, website, primary market, every market and alias, with buttons into its views.',
  examples: ['/visibility brand "Acme Analytics"', '/visibility brand globex'],
  async run(ctx) {
    const token = ctx.args.positional.join(' ');
    const found = await ctx.resolveBrand(token === '' ? undefined : token);
    const details = await fetchBrandDetails(ctx.deps, found, ['markets', 'aliases']);
    await ctx.respond(brandDetailReply(details, `brand ${found.id}`));
  },
};
