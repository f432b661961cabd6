/**
 * What every `citations` view gets: the brand token (undefined = channel default), the
 * words after the view name, a flag reader and a usage error that quotes this view's usage.
 */

import { escapeMrkdwn, type Mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { type FlagReader, flagReader } from '../../commands/args/flag-reader.js';
import type { CommandContext } from '../../commands/subcommand.js';
import { CITATION_USAGES, type CitationViewName } from './citation-usages.js';

export interface CitationViewArgs {
  ctx: CommandContext;
  brandToken: string | undefined;
  rest: string[];
  flags: FlagReader;
  fail(message: string): UserError;
}

export function citationViewArgs(
  ctx: CommandContext,
  view: CitationViewName,
  brandToken: string | undefined,
  rest: string[],
): CitationViewArgs {
  const fail = (message: Mrkdwn) => new UserError(UserErrorCode.BadArguments, message, CITATION_USAGES[view]);
  return { ctx, brandToken, rest, flags: flagReader(ctx.args.flags, fail), fail };
}

/** Views that take no words after their name. */
export function noExtraWords(a: CitationViewArgs, view: string): void {
  if (a.rest.length > 0) {
    throw a.fail(`\`${view}\` takes no more words (got “${escapeMrkdwn(a.rest.join(' ').slice(0, 60))}”).`);
  }
}
