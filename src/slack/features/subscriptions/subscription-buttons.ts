/**
 * The buttons under each subscription in `subscriptions`: Mute (a duration in words picked
 * from a select) and Unsubscribe (after Slack's confirm dialog) do what the typed commands
 * do, by running them for that brand with the clicker's rights, so the answer, the audit
 * entry and the channel note are the same; then the list clicked is brought up to date.
 * Edit lives in open-settings-modal.ts.
 */
import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Reply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionContext, ActionHandler } from '../../actions/action-handler.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import type { CommandContext, Subcommand } from '../../commands/subcommand.js';
import { mute } from './mute.js';
import { MUTE_CHOICES, SUBSCRIPTION_ACTIONS } from './subscription-actions.js';
import { subscriptionStates } from './subscriptions.js';
import { SUBSCRIPTION_BLOCK_PREFIX, subscriptionsReply } from './subscriptions-view.js';
import { unsubscribe } from './unsubscribe.js';

const stale = () =>
  new UserError(
    UserErrorCode.StaleAction,
    mrkdwn`That button is from an older message; run \`/visibility subscriptions\` again.`,
  );

/**
 * Runs `sub` as if its words were typed in the clicked channel. (Not through the command
 * registry: that gathers the features, this one among them.)
 */
async function runAsTyped(ctx: ActionContext, sub: Subcommand, positional: string[]): Promise<void> {
  if (!ctx.channelId) throw stale();
  const commandCtx: CommandContext = {
    deps: ctx.deps,
    userId: ctx.userId,
    channelId: ctx.channelId,
    teamId: ctx.teamId ?? '',
    triggerId: ctx.triggerId ?? '',
    args: { positional, flags: {} },
    rawText: [sub.name, ...positional].join(' '),
    // A new message under the list: the list itself stays as it was clicked.
    respond: (reply: Reply) => ctx.respond({ ...reply, replaceOriginal: false }),
    resolveBrand: ctx.resolveBrand,
    requireWriter: ctx.requireWriter,
    usageError: (message) => new UserError(UserErrorCode.BadArguments, message, sub.usage),
    client: ctx.client,
    subcommands: [sub],
  };
  await sub.run(commandCtx);
  // The list clicked shows the change too (muted until…, or the subscription gone).
  const now = ctx.deps.clock.now();
  await ctx.respond({
    ...subscriptionsReply(
      await subscriptionStates(ctx.deps, ctx.channelId, now),
      ctx.deps.config.defaultTimezone,
      now,
    ),
    replaceOriginal: true,
  });
}

export const muteSelect: ActionHandler = {
  prefix: SUBSCRIPTION_ACTIONS.mute,
  async run(ctx) {
    const blockId = ctx.action.blockId ?? '';
    const brandId = blockId.startsWith(SUBSCRIPTION_BLOCK_PREFIX)
      ? blockId.slice(SUBSCRIPTION_BLOCK_PREFIX.length)
      : '';
    const duration = ctx.action.selectedOption;
    if (brandId === '' || !(MUTE_CHOICES as readonly (string | undefined)[]).includes(duration))
      throw stale();
    await runAsTyped(ctx, mute, [brandId, ...duration!.split(' ')]);
  },
};

export const unsubscribeButton: ActionHandler = {
  prefix: SUBSCRIPTION_ACTIONS.unsubscribe,
  async run(ctx) {
    const { brandId } = parseActionValue(ctx.action.value);
    if (typeof brandId !== 'string' || brandId === '') throw stale();
    await runAsTyped(ctx, unsubscribe, [brandId]);
  },
};
