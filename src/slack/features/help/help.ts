import { closestMatches } from '../../../closest-matches.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { findSubcommand } from '../../commands/find-subcommand.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { helpDetailReply, helpFiguresReply, helpOverviewReply } from './help-view.js';

export const help: Subcommand = {
  name: 'help',
  aliases: ['?'],
  group: 'Bot',
  usage: '/visibility help [subcommand | figures]',
  summary: 'List every subcommand with an example, explain one, or say what each figure counts.',
  examples: ['/visibility help', '/visibility help brands', '/visibility help figures'],
  allowGuests: true,
  worksWithoutDatabase: true,
  async run(ctx) {
    const name = ctx.args.positional[0];
    if (name === undefined) return ctx.respond(helpOverviewReply(ctx.subcommands));
    if (/^(figures|glossary)$/i.test(name)) return ctx.respond(helpFiguresReply());
    const found = findSubcommand(ctx.subcommands, name);
    if (found) return ctx.respond(helpDetailReply(found));
    const close = closestMatches(
      name,
      ctx.subcommands.map((s) => s.name),
    );
    throw new UserError(
      UserErrorCode.UnknownSubcommand,
      mrkdwn`There is no subcommand \`${escapeMrkdwn(name)}\`.${close[0] !== undefined ? mrkdwn` Did you mean \`${escapeMrkdwn(close[0])}\`?` : mrkdwn``} \`/visibility help\` lists them all.`,
    );
  },
};
