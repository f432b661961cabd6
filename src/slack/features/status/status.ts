import { mrkdwn } from '../../../messages/mrkdwn.js';
import { collectStatus } from '../../../use-cases/collect-status.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { statusBlocks, statusFallback, statusReply } from './status-view.js';

export const status: Subcommand = {
  name: 'status',
  group: 'Bot',
  usage: '/visibility status',
  summary:
    'How the bot is doing: API requests used today against the daily limit, the rate limiter, the service.',
  examples: ['/visibility status'],
  // Its own section says when the database cannot be used.
  worksWithoutDatabase: true,
  async run(ctx) {
    if (ctx.args.positional.length > 0) throw ctx.usageError(mrkdwn`\`status\` takes no arguments.`);
    const report = await collectStatus(ctx.deps);
    await ctx.respond(statusReply(statusBlocks(report), statusFallback(report.limiter)));
  },
};
