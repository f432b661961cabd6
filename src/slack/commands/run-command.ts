/**
 * One `/visibility …` after it was acked: parse, find the subcommand, check the user is a
 * member (not a guest), run it, and turn anything it throws into a reply. Every path
 * ends in exactly one logged line and one latency observation.
 */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { closestMatches } from '../../closest-matches.js';
import { escapeMrkdwn, mrkdwn } from '../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../messages/user-error.js';
import type { CommandOutcome } from '../../metrics.js';
import { withChartFallback } from '../kit/chart-reply.js';
import { fittedRespond } from '../kit/fitted-respond.js';
import type { GuestCheck } from '../kit/guest-check.js';
import { reportError } from '../kit/report-error.js';
import { requestDeps } from '../kit/request-deps.js';
import { requireWriter } from '../kit/require-writer.js';
import type { SlackDeps } from '../kit/slack-deps.js';
import { brandMissingReply, brandPickReply } from './brand-pick-reply.js';
import { findSubcommand } from './find-subcommand.js';
import {
  DEFAULT_BOOLEAN_FLAGS,
  isParseError,
  type ParsedCommand,
  parseCommandText,
} from './parse-command-text.js';
import { BrandAmbiguousError, BrandMissingError } from './resolve-brand.js';
import { resolveBrandForChannel } from './resolve-brand-for-channel.js';
import type { CommandContext, Subcommand } from './subcommand.js';

interface SlashCommandInput {
  text: string;
  userId: string;
  channelId: string;
  /** Slack's channel_name: `directmessage` in a DM, `mpdm-…` in a group DM. */
  channelName?: string;
  teamId: string;
  triggerId: string;
  client: WebClient;
  respond: RespondFn;
}

interface RunCommandOptions {
  subcommands: readonly Subcommand[];
  guestCheck: GuestCheck;
}

function unknownSubcommand(name: string, list: readonly Subcommand[]): UserError {
  const [closest] = closestMatches(
    name,
    list.flatMap((s) => [s.name, ...(s.aliases ?? [])]),
    { max: 1 },
  );
  const suggestion = closest ? findSubcommand(list, closest) : undefined;
  return new UserError(
    UserErrorCode.UnknownSubcommand,
    mrkdwn`\`${escapeMrkdwn(name)}\` is not a /visibility subcommand.${suggestion ? mrkdwn` Did you mean \`${escapeMrkdwn(suggestion.name)}\`?` : mrkdwn``} \`/visibility help\` lists them all.`,
    suggestion?.usage ?? '/visibility help',
  );
}

type PickedCommand = { name: string; positional: string[]; flags: Record<string, string | true> };
type CommandRespond = CommandContext['respond'];

/** What a subcommand runs with: the request's deps, its arguments and its ways to answer. */
function commandContext(
  request: CommandContext['deps'],
  input: SlashCommandInput,
  sub: Subcommand,
  parsed: ParsedCommand,
  respond: CommandRespond,
  subcommands: readonly Subcommand[],
): CommandContext {
  return {
    deps: request,
    userId: input.userId,
    channelId: input.channelId,
    ...(input.channelName !== undefined ? { channelName: input.channelName } : {}),
    teamId: input.teamId,
    triggerId: input.triggerId,
    args: {
      positional: parsed.positional.slice(1),
      flags: parsed.flags,
      ...(parsed.raw ? { raw: parsed.raw.slice(1) } : {}),
    },
    rawText: input.text,
    respond,
    resolveBrand: (token) => resolveBrandForChannel(request, input.channelId, token, sub.usage),
    requireWriter: async (action) => requireWriter(request, input, action),
    usageError: (message) => new UserError(UserErrorCode.BadArguments, message, sub.usage),
    client: input.client,
    subcommands,
  };
}

/**
 * A brand that is ambiguous or missing is a question with a way to answer it (a button per
 * brand, a brand select), not just an error to retype.
 */
async function askWhichBrand(
  err: BrandAmbiguousError | BrandMissingError,
  picked: PickedCommand,
  respond: CommandRespond,
  logger: SlackDeps['logger'],
  handler: string,
): Promise<void> {
  const reply =
    err instanceof BrandAmbiguousError
      ? brandPickReply(err, picked.name, picked.positional, picked.flags)
      : brandMissingReply(err, picked.name, picked.positional, picked.flags);
  await respond(reply).catch((deliveryErr: unknown) =>
    logger.warn({ err: deliveryErr, handler }, 'brand picker could not be delivered'),
  );
}

export async function runCommand(
  deps: SlackDeps,
  input: SlashCommandInput,
  options: RunCommandOptions,
): Promise<void> {
  const started = performance.now();
  // The limiter's order for this command's API calls (deps.clock: the limiter's clock).
  const request = requestDeps(deps, deps.clock.now());
  const logger = deps.logger.child({
    component: 'command',
    userId: input.userId,
    channelId: input.channelId,
  });
  const respond = withChartFallback(fittedRespond(input.respond), deps, {
    teamId: input.teamId,
    channelId: input.channelId,
    web: input.client,
  });
  const { subcommands } = options;
  let name = 'unknown';
  let outcome: CommandOutcome = 'ok';
  let picked: PickedCommand | undefined;
  try {
    const booleanFlags = new Set([
      ...DEFAULT_BOOLEAN_FLAGS,
      ...subcommands.flatMap((s) => s.booleanFlags ?? []),
    ]);
    const parsed = parseCommandText(input.text, { booleanFlags });
    if (isParseError(parsed)) {
      const first = findSubcommand(subcommands, input.text.trim().split(/\s+/)[0] ?? '');
      if (first) name = first.name;
      throw new UserError(UserErrorCode.BadSyntax, parsed.error, first?.usage);
    }
    const typed = parsed.positional[0] ?? 'help';
    const sub = findSubcommand(subcommands, typed);
    if (!sub) throw unknownSubcommand(typed, subcommands);
    name = sub.name;
    picked = { name: typed, positional: parsed.positional.slice(1), flags: parsed.flags };
    if (!sub.allowGuests) await options.guestCheck(input.client, input.userId);
    if (!sub.worksWithoutDatabase) await request.database.available();

    await sub.run(commandContext(request, input, sub, parsed, respond, subcommands));
  } catch (err) {
    if ((err instanceof BrandAmbiguousError || err instanceof BrandMissingError) && picked) {
      outcome = 'user_error';
      await askWhichBrand(err, picked, respond, logger, name);
    } else {
      outcome = await reportError(err, { logger, respond, label: name });
    }
  } finally {
    const seconds = (performance.now() - started) / 1000;
    deps.metrics.observeCommand(name, seconds, outcome);
    logger.info({ subcommand: name, outcome, ms: Math.round(seconds * 1000) }, 'command handled');
  }
}
