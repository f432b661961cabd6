/**
 * `subscriptions`: this channel's subscriptions as a table, and whatever holds
 * them back: a mute, a pause Slack caused (with its reason), snoozed kinds, held alerts.
 * Read from the database only, so it answers when the API key does not.
 */

import { mrkdwn } from '../../../messages/mrkdwn.js';
import type { Subcommand } from '../../commands/subcommand.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { type SubscriptionState, subscriptionsReply } from './subscriptions-view.js';

/** The channel's subscriptions with what holds each back now, as the list shows them. */
export async function subscriptionStates(
  deps: Pick<SlackDeps, 'store'>,
  channelId: string,
  nowMs: number,
): Promise<SubscriptionState[]> {
  const snoozes = (await deps.store.snoozes.listActive(nowMs)).filter((z) => z.channelId === channelId);
  const held = await deps.store.outbox().listHeld(channelId);
  return (await deps.store.subscriptions.listByChannel(channelId)).map((sub) => ({
    sub,
    snoozes: snoozes.filter((z) => z.brandId === sub.brandId),
    held: held.filter((r) => r.brandId === sub.brandId).length,
  }));
}

export const subscriptions: Subcommand = {
  name: 'subscriptions',
  aliases: ['subs'],
  group: 'Alerts',
  usage: '/visibility subscriptions',
  summary:
    'This channel’s subscriptions as a table: what each brings, its digest time and quiet hours, and whether it is muted, snoozed or paused (and why).',
  examples: ['/visibility subscriptions'],
  async run(ctx) {
    if (ctx.args.positional.length > 0)
      throw ctx.usageError(mrkdwn`\`subscriptions\` takes no arguments; it lists this channel’s.`);
    const { deps, channelId } = ctx;
    const now = deps.clock.now();
    const states = await subscriptionStates(deps, channelId, now);
    await ctx.respond(subscriptionsReply(states, deps.config.defaultTimezone, now));
  },
};
