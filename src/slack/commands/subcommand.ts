/**
 * The contract every `/visibility <subcommand>` implements. The router (index.ts) finds
 * the subcommand by name or alias, builds the context and maps whatever it throws to user
 * text; a subcommand only reads `ctx.args`, calls the API and `ctx.respond()`s.
 */
import type { WebClient } from '@slack/web-api';
import type { Brand } from '../../api/schemas/index.js';
import type { Mrkdwn } from '../../messages/mrkdwn.js';
import type { Reply } from '../../messages/reply.js';
import type { UserError } from '../../messages/user-error.js';
import type { SlackDeps } from '../kit/slack-deps.js';
import type { ParsedCommand } from './parse-command-text.js';

export const subcommandGroups = [
  'Brands',
  'Content ideas',
  'Citations',
  'Crawler',
  'AI Pages',
  'Alerts',
  'Bot',
] as const;
export type SubcommandGroup = (typeof subcommandGroups)[number];

export interface Subcommand {
  name: string;
  aliases?: string[];
  group: SubcommandGroup;
  /** e.g. `/visibility citations <brand> [--days N]` */
  usage: string;
  summary: string;
  /** Full command lines, e.g. `/visibility citations "Acme Analytics" --days 14` */
  examples: string[];
  /** Flags that take no value, so `--compare Acme` leaves "Acme" positional. */
  booleanFlags?: string[];
  /** Shows no brand data, so Slack guests may run it too (help). */
  allowGuests?: boolean;
  /**
   * Answers while the database cannot be used (help needs none; status says it is down).
   * Every other subcommand is then answered at once that nothing was changed: each needs
   * the database, if only for the API key's shared rate budget.
   */
  worksWithoutDatabase?: boolean;
  run(ctx: CommandContext): Promise<void>;
}

export interface CommandContext {
  deps: SlackDeps;
  userId: string;
  channelId: string;
  /** Slack's channel_name when the command came from a conversation (`directmessage`, `mpdm-…`). */
  channelName?: string;
  teamId: string;
  triggerId: string;
  /** Parsed arguments; `positional` no longer holds the subcommand name. */
  args: ParsedCommand;
  /** The text after `/visibility`, as typed. */
  rawText: string;
  /** Replies on the command's response_url (ephemeral unless the reply says otherwise), fitted to Slack's limits. */
  respond(reply: Reply): Promise<void>;
  /** A brand by UUID, name or unambiguous prefix; without a token, the channel's default brand. */
  resolveBrand(token?: string): Promise<Brand>;
  /** Throws a UserError (and audits the refusal) unless the user may change brands and subscriptions. */
  requireWriter(action: string): Promise<void>;
  /** A UserError carrying this subcommand's usage line. */
  usageError(message: Mrkdwn): UserError;
  /** Bolt's client for this request (views.open with `triggerId`). */
  client: WebClient;
  /** Every registered subcommand (help lists them). */
  subcommands: readonly Subcommand[];
}
