/**
 * `subscribe <brand> [alerts|digest]`, run in the channel that should receive them (both
 * when the kind is left out; adding one to an existing subscription keeps the other).
 *
 * Channels only (not DMs or group DMs, whose history the bot's scopes cannot read), and
 * the bot must be able to post there (else: how to invite it). Citation events are
 * baselined silently (src/alerting/subscribe-with-baseline.ts). Admins only when
 * SLACK_ADMIN_USERS is set; audited.
 */
import { subscribeWithBaseline } from '../../../alerting/subscribe-with-baseline.js';
import { escapeMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError } from '../../../messages/user-error.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandName } from '../../views/brand-name.js';
import { CHANNELS_ONLY_HINT, ensureBotCanPost, isDirectConversation } from './ensure-bot-can-post.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { splitKind } from './split-kind.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor, receives, subscribedReply } from './subscriptions-view.js';

export const subscribe: Subcommand = {
  name: 'subscribe',
  group: 'Alerts',
  usage: '/visibility subscribe <brand> [alerts|digest]',
  summary:
    'Send this channel alerts and the daily digest for a brand (run it in that channel; both unless you name one). Alerts: cited pages lost, competitors on cited pages, sentiment drops, AI crawler visit drops, AI Pages usage. The digest comes daily at 09:00 in the bot’s time zone; change it with settings.',
  examples: [
    '/visibility subscribe "Acme Analytics"',
    '/visibility subscribe "Acme Analytics" alerts',
    '/visibility subscribe "Acme Analytics" digest',
  ],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const { brandToken, kind } = splitKind(ctx.args.positional);
    // Said first, to everyone: in a DM the answer is "not here", whoever asks.
    if (isDirectConversation(channelId, ctx.channelName))
      throw new UserError('not_a_channel', CHANNELS_ONLY_HINT);
    await ctx.requireWriter(SUBSCRIPTION_WRITES.subscribe);
    const brand = await ctx.resolveBrand(brandToken);
    await ensureBotCanPost(ctx.client, channelId);

    const { subscription, created, alerts, digest, baselined, atMs } = await subscribeWithBaseline(deps, {
      channelId,
      brand,
      kind,
      userId,
      call: { lane: ctx.lane },
    });
    await deps.auditLog.record({
      atMs,
      userId,
      channelId,
      brandId: brand.id,
      action: SUBSCRIPTION_WRITES.subscribe,
      detail: { alerts, digest, created, baselined },
      result: 'ok',
    });
    const what = escapeMrkdwn(receives(subscription, deps.config.defaultTimezone));
    const noteFailure = await postChannelNote(ctx.client, deps.logger, channelId, {
      by: userId,
      did: created
        ? mrkdwn`subscribed this channel to *${brandName(subscription.brandName)}*: ${what}.`
        : mrkdwn`changed this channel's subscription to *${brandName(subscription.brandName)}*: it now brings ${what}.`,
      undo: mrkdwn`${commandFor('unsubscribe', subscription, kind ?? '')} stops ${kind === 'digest' ? mrkdwn`it` : mrkdwn`them`}.`,
    });
    await ctx.respond(
      withNoteOutcome(
        subscribedReply(subscription, { created, defaultTimezone: deps.config.defaultTimezone }),
        noteFailure,
      ),
    );
  },
};
