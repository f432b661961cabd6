/**
 * `use <brand>` gives this channel a default brand, so brand commands here can leave the
 * brand out; `use` alone says which one is set; `use --clear` removes it. A channel
 * setting of the bot, not a change to the brand: no admin check, but audited like writes.
 */

import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { channelDefaultBrandId } from '../../commands/channel-default-brand.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { clearChannelDefaultBrand, saveChannelDefaultBrand } from './save-channel-default-brand.js';

const USE_ACTIONS = {
  set: 'set the channel default brand',
  clear: 'clear the channel default brand',
} as const;

export const use: Subcommand = {
  name: 'use',
  aliases: ['default'],
  group: 'Brands',
  usage: '/visibility use [brand] [--clear]',
  summary:
    'Give this channel a default brand, so brand commands here can leave it out. Alone: shows the default. `--clear` removes it.',
  examples: ['/visibility use "Acme Analytics"', '/visibility use', '/visibility use --clear'],
  booleanFlags: ['clear'],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const token = ctx.args.positional.join(' ').trim();
    const audit = (action: string, brandId: string | null, result = 'ok') =>
      deps.auditLog.record({ atMs: deps.clock.now(), userId, channelId, brandId, action, result });

    if (ctx.args.flags['clear'] !== undefined) {
      if (token !== '') throw ctx.usageError(mrkdwn`Use either a brand or \`--clear\`, not both.`);
      const had = await channelDefaultBrandId(deps.store, channelId);
      await clearChannelDefaultBrand(deps.store, channelId);
      await audit(USE_ACTIONS.clear, had ?? null, had ? 'ok' : 'refused: nothing_set');
      await ctx.respond(
        textReply(
          had
            ? mrkdwn`This channel has no default brand any more: name the brand in each command.`
            : mrkdwn`This channel had no default brand; nothing changed.`,
        ),
      );
      return;
    }

    if (token === '') {
      const id = await channelDefaultBrandId(deps.store, channelId);
      if (id === undefined) {
        await ctx.respond(
          textReply(
            mrkdwn`This channel has no default brand. Set one with \`/visibility use "Acme Analytics"\`.`,
          ),
        );
        return;
      }
      const brands = await deps.brandCache.list();
      const current = brands.find((b) => b.id === id);
      await ctx.respond(
        textReply(
          current
            ? mrkdwn`This channel's default brand is *${escapeMrkdwn(current.name)}*. Change it with \`/visibility use &lt;brand&gt;\`, remove it with \`/visibility use --clear\`.`
            : mrkdwn`This channel's default brand (\`${escapeMrkdwn(id)}\`) is no longer visible to the API key. Set another with \`/visibility use &lt;brand&gt;\`.`,
        ),
      );
      return;
    }

    const found = await ctx.resolveBrand(token);
    await saveChannelDefaultBrand(deps.store, {
      channelId,
      brandId: found.id,
      setBy: userId,
      atMs: deps.clock.now(),
    });
    await audit(USE_ACTIONS.set, found.id);
    await ctx.respond(
      textReply(
        mrkdwn`*${escapeMrkdwn(found.name)}* is now this channel's default brand: brand commands here can leave it out, e.g. \`/visibility markets\` or \`/visibility brand\`.`,
      ),
    );
  },
};
