/**
 * `subscribe <brand> [alerts|digest] [key=value …]`, run in the channel that should receive
 * them (both when the kind is left out; adding one to an existing subscription keeps the
 * other). Settings may come along, as `settings` takes them: `tz=Berlin digest=08:30`; a
 * mistake in them subscribes nothing and says what was wrong.
 *
 * Channels only (not DMs or group DMs, whose history the bot's scopes cannot read), and
 * the bot must be able to post there (else: how to invite it). Citation events are
 * baselined silently (src/use-cases/subscribe-with-baseline.ts). Admins only when
 * SLACK_ADMIN_USERS is set; audited.
 */

import { parseSettingsArgs, type SettingsArgsResult } from '../../../alerts/parse-settings-args.js';
import { escapeMrkdwn, joinMrkdwn, mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { changeHolds } from '../../../use-cases/change-holds.js';
import { subscribeWithBaseline } from '../../../use-cases/subscribe-with-baseline.js';
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
  usage: '/visibility subscribe <brand> [alerts|digest] [tz=<city> …]',
  summary:
    'Send this channel alerts and the daily digest for a brand (run it in that channel; both unless you name one). Alerts: cited pages lost, competitors on cited pages, sentiment drops, AI crawler visit drops, AI Pages usage. The digest comes daily at 09:00 in the bot’s time zone, or in yours with tz=<city>; any other setting may follow too, as settings takes it.',
  examples: [
    '/visibility subscribe "Acme Analytics"',
    '/visibility subscribe "Acme Analytics" alerts',
    '/visibility subscribe "Acme Analytics" digest',
    '/visibility subscribe "Acme Analytics" tz=Berlin digest=08:30',
  ],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const at = ctx.args.positional.findIndex((t) => t.includes('='));
    const words = at === -1 ? ctx.args.positional : ctx.args.positional.slice(0, at);
    const changes = at === -1 ? [] : ctx.args.positional.slice(at);
    const { brandToken, kind } = splitKind(words);
    // Said first, to everyone: in a DM the answer is "not here", whoever asks.
    if (isDirectConversation(channelId, ctx.channelName))
      throw new UserError(UserErrorCode.NotAChannel, CHANNELS_ONLY_HINT);
    await ctx.requireWriter(SUBSCRIPTION_WRITES.subscribe);
    const brand = await ctx.resolveBrand(brandToken);
    // Checked before anything is written: a typo in a setting subscribes nothing.
    const settings = await settingsGiven(deps, channelId, brand.id, changes);
    await ensureBotCanPost(ctx.client, channelId);

    const {
      subscription: subscribed,
      created,
      alerts,
      digest,
      baselined,
      atMs,
    } = await subscribeWithBaseline(deps, {
      channelId,
      brand,
      kind,
      userId,
    });
    let subscription = subscribed;
    if (settings) {
      const chosen = settings.settings;
      await changeHolds(
        deps,
        subscription,
        () => deps.store.subscriptions.setSettings(channelId, brand.id, chosen),
        deps.config.defaultTimezone,
        atMs,
      );
      subscription = { ...subscription, settings: chosen };
    }
    await deps.auditLog.record({
      atMs,
      userId,
      channelId,
      brandId: brand.id,
      action: SUBSCRIPTION_WRITES.subscribe,
      detail: { alerts, digest, created, baselined, ...(settings ? { settings: settings.changed } : {}) },
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

/** The settings typed after the brand, over the subscription's current ones; null when none. */
async function settingsGiven(
  deps: Parameters<Subcommand['run']>[0]['deps'],
  channelId: string,
  brandId: string,
  changes: readonly string[],
): Promise<Extract<SettingsArgsResult, { ok: true }> | null> {
  if (changes.length === 0) return null;
  const current = await deps.store.subscriptions.get(channelId, brandId);
  const parsed = parseSettingsArgs(changes, current?.settings);
  if (parsed.ok) return parsed;
  throw new UserError(
    UserErrorCode.BadSettings,
    mrkdwn`Nothing changed:\n${joinMrkdwn(
      parsed.errors.map((e) => mrkdwn`• ${escapeMrkdwn(e)}`),
      mrkdwn`\n`,
    )}`,
    subscribe.usage,
  );
}
