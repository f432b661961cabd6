/**
 * Runs a registered `/visibility` subcommand on behalf of a button click (Share in
 * channel, drill-down buttons): the same code path as typing the command, with a
 * CommandContext built from the action's, and replies going where the caller says.
 */

import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionContext } from '../../actions/action-handler.js';
import { findSubcommand } from '../../commands/find-subcommand.js';
import { DEFAULT_BOOLEAN_FLAGS, isParseError, parseCommandText } from '../../commands/parse-command-text.js';
import type { CommandContext, Subcommand } from '../../commands/subcommand.js';
import { subcommands as registered } from '../commands/registry.js';

export interface SubcommandRun {
  /** Subcommand name or alias */
  name: string;
  positional: string[];
  flags: Record<string, string | true>;
  /** What the command would have looked like typed, for logs and `rawText`. */
  rawText: string;
}

/** `markets "Acme Analytics"` → a SubcommandRun, or a UserError a person can read. */
export function parseSubcommandText(text: string, list: readonly Subcommand[] = registered): SubcommandRun {
  const booleanFlags = new Set([...DEFAULT_BOOLEAN_FLAGS, ...list.flatMap((s) => s.booleanFlags ?? [])]);
  const parsed = parseCommandText(text, { booleanFlags });
  if (isParseError(parsed) || parsed.positional.length === 0) {
    throw new UserError(
      UserErrorCode.StaleAction,
      mrkdwn`That button is from an older message; run the command again.`,
    );
  }
  const [name, ...positional] = parsed.positional;
  return { name: name!, positional, flags: parsed.flags, rawText: text };
}

export async function runSubcommandFromAction(
  ctx: ActionContext,
  run: SubcommandRun,
  respond: (reply: Reply) => Promise<void>,
  list: readonly Subcommand[] = registered,
): Promise<void> {
  const sub = findSubcommand(list, run.name);
  if (!sub) {
    throw new UserError(
      UserErrorCode.ViewUnavailable,
      mrkdwn`This bot has no \`${escapeMrkdwn(run.name)}\` view yet; try \`/visibility help\`.`,
    );
  }
  const commandCtx: CommandContext = {
    deps: ctx.deps,
    userId: ctx.userId,
    channelId: ctx.channelId ?? '',
    teamId: ctx.teamId ?? '',
    triggerId: ctx.triggerId ?? '',
    args: { positional: run.positional, flags: run.flags },
    rawText: run.rawText,
    respond,
    resolveBrand: ctx.resolveBrand,
    requireWriter: ctx.requireWriter,
    usageError: (message) => new UserError(UserErrorCode.BadArguments, message, sub.usage),
    client: ctx.client,
    subcommands: list,
  };
  await sub.run(commandCtx);
}
