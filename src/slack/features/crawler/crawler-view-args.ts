/** What every `crawler` view gets: the parsed words, a flag reader and its own usage error. */

import { escapeMrkdwn, type Mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { type FlagReader, flagReader } from '../../commands/args/flag-reader.js';
import type { CommandContext } from '../../commands/subcommand.js';
import type { CrawlerArgs } from './crawler-args.js';
import { CRAWLER_USAGES } from './crawler-usages.js';

export interface CrawlerViewArgs extends CrawlerArgs {
  ctx: CommandContext;
  flags: FlagReader;
  fail(message: string): UserError;
}

export function crawlerViewArgs(ctx: CommandContext, args: CrawlerArgs): CrawlerViewArgs {
  const fail = (message: Mrkdwn) =>
    new UserError(UserErrorCode.BadArguments, message, CRAWLER_USAGES[args.verb]);
  return { ...args, ctx, flags: flagReader(ctx.args.flags, fail), fail };
}

/** Views that take no range (the action endpoints have no date model). */
export function noRange(a: CrawlerViewArgs): void {
  if (a.range !== undefined) throw a.fail(`\`${a.verb}\` takes no date range.`);
}

/** Keeps a long operand readable in an error message. */
export const shown = (s: string) => escapeMrkdwn(s.slice(0, 80));
