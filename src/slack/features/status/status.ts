import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { collectStatusBlocks, statusFallback, statusReply } from './status-view.js';

export const status: Subcommand = {
  name: 'status',
  group: 'Bot',
  usage: '/visibility status',
  summary:
    'How the bot is doing: API requests used today against the daily limit, the rate limiter, the service.',
  examples: ['/visibility status'],
  async run(ctx) {
    if (ctx.args.positional.length > 0) throw ctx.usageError(mrkdwn`\`status\` takes no arguments.`);
    const { deps } = ctx;
    const parts = await collectStatusBlocks({ deps, nowMs: deps.clock.now() });
    await ctx.respond(statusReply(parts, statusFallback(deps.api.limiterState())));
  },
};
