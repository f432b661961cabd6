/**
 * Bad input from the person typing: shown to them as is, never logged as a failure. The
 * message is `Mrkdwn`: whatever it quotes of their input was escaped when it was built.
 */
import type { Mrkdwn } from './mrkdwn.js';

/**
 * What went wrong, as a code (the style of ApiErrorCode): tests and callers branch on it,
 * never on the message.
 */
export const UserErrorCode = {
  /** The alert is already assigned to that person. */
  AlreadyAssigned: 'already_assigned',
  /** The alert was resolved already (by someone else, or by a click replayed). */
  AlreadyResolved: 'already_resolved',
  /** Reopen on an alert that is not resolved. */
  NotResolved: 'not_resolved',
  /** A click Slack (or someone) sent again: it was acted on once already. */
  Replayed: 'replayed',
  /** The alias is already on the brand. */
  AliasExists: 'alias_exists',
  /** The alias to remove is not on the brand. */
  AliasUnknown: 'alias_unknown',
  /** The words after a subcommand do not fit its usage. */
  BadArguments: 'bad_arguments',
  /** A `key=value` setting with a value it does not take. */
  BadSettings: 'bad_settings',
  /** The command line itself cannot be read (unbalanced quotes). */
  BadSyntax: 'bad_syntax',
  /** The bot has not been invited to the channel. */
  BotNotInChannel: 'bot_not_in_channel',
  /** The channel's default brand is no longer one the key sees. */
  BrandDefaultGone: 'brand_default_gone',
  /** The brand was known but the key no longer sees it. */
  BrandGone: 'brand_gone',
  /** The command needs a brand and none was given or set for the channel. */
  BrandMissing: 'brand_missing',
  /** No brand the key sees has the name typed. */
  BrandUnknown: 'brand_unknown',
  /** The channel is archived. */
  ChannelArchived: 'channel_archived',
  /** The chart could not be drawn. */
  ChartFailed: 'chart_failed',
  /** There are no figures to chart. */
  ChartNoData: 'chart_no_data',
  /** There is nowhere to post the chart. */
  ChartNotPostable: 'chart_not_postable',
  /** Slack refused the chart upload. */
  ChartUploadFailed: 'chart_upload_failed',
  /** Slack guests cannot use the bot. */
  Guest: 'guest',
  /** Slack could not say whether the person is a guest. */
  GuestCheckFailed: 'guest_check_failed',
  /** The market named is not one of the brand's markets. */
  MarketUnknown: 'market_unknown',
  /** Slack gave no way to open a form from here (no trigger id): run the command instead. */
  NoTrigger: 'no_trigger',
  /** The place named is not a channel (a DM, a user, an unknown id). */
  NotAChannel: 'not_a_channel',
  /** A change by someone who is not among SLACK_ADMIN_USERS. */
  NotAllowed: 'not_allowed',
  /** The channel has no subscription to the brand. */
  NotSubscribed: 'not_subscribed',
  /** The primary market cannot be removed. */
  PrimaryMarket: 'primary_market',
  /** The reply cannot be shared (too long for a channel message, or no channel to share in). */
  ShareUnavailable: 'share_unavailable',
  /** Two or more brands match the name typed: the reply offers each. */
  BrandAmbiguous: 'brand_ambiguous',
  /** A button or menu from an old message whose context is gone (the brand, the subscription, the page). */
  StaleAction: 'stale_action',
  /** A form from an older version of the bot, whose fields it no longer reads. */
  StaleModal: 'stale_modal',
  /** A Workflow Builder step input has a value it does not take. */
  StepInputInvalid: 'step_input_invalid',
  /** A Workflow Builder step ran without a required input. */
  StepInputMissing: 'step_input_missing',
  /** A click the bot has no handler for (an old message after an upgrade). */
  UnknownAction: 'unknown_action',
  /** A subcommand the bot does not have. */
  UnknownSubcommand: 'unknown_subcommand',
  /** A view name the subcommand does not have. */
  UnknownView: 'unknown_view',
  /** A button asks for a view this version of the bot does not have. */
  ViewUnavailable: 'view_unavailable',
  /** The key's user is only a viewer of the brand: the service refuses changes. */
  ViewerRole: 'viewer_role',
} as const;
export type UserErrorCode = (typeof UserErrorCode)[keyof typeof UserErrorCode];

export class UserError extends Error {
  declare message: Mrkdwn;
  readonly code: UserErrorCode;
  /** The usage line to show with the message, e.g. `/visibility citations <brand> [--days N]`. */
  readonly usage: string | undefined;

  constructor(code: UserErrorCode, message: Mrkdwn, usage?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UserError';
    this.code = code;
    this.usage = usage;
  }
}
