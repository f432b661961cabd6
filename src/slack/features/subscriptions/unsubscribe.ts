/**
 * `unsubscribe <brand> [alerts|digest]`: stop alerts, the digest, or (without a kind)
 * both. Alert messages still held for this channel and brand are cancelled, and the
 * channel's level state (crawler, AI Pages) is forgotten, so a later subscription alerts
 * on first sight again. Admins only when SLACK_ADMIN_USERS is set; audited.
 */

import { mrkdwn } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandName } from '../../views/brand-name.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { splitKind } from './split-kind.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor } from './subscriptions-view.js';

export const unsubscribe: Subcommand = {
  name: 'unsubscribe',
  group: 'Alerts',
  usage: '/visibility unsubscribe <brand> [alerts|digest]',
  summary:
    'Stop a brand’s alerts, its daily digest, or (naming neither) both in this channel. Alerts still held for a mute or quiet hours are dropped.',
  examples: ['/visibility unsubscribe "Acme Analytics"', '/visibility unsubscribe "Acme Analytics" digest'],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    const { brandToken, kind } = splitKind(ctx.args.positional);
    await ctx.requireWriter(SUBSCRIPTION_WRITES.unsubscribe);
    const sub = await resolveSubscribedBrand(deps, channelId, brandToken);
    const name = brandName(sub.brandName);
    if (kind && !sub[kind]) {
      await ctx.respond(
        textReply(
          mrkdwn`This channel does not get ${kind === 'alerts' ? mrkdwn`alerts` : mrkdwn`the daily digest`} for *${name}*; nothing changed. \`/visibility subscriptions\` shows what it gets.`,
        ),
      );
      return;
    }
    const removeAll = kind === undefined || (kind === 'alerts' ? !sub.digest : !sub.alerts);
    const stopAlerts = removeAll || kind === 'alerts';
    const subs = deps.store.subscriptions;
    const outbox = deps.store.outbox();
    let cancelled = 0;
    await deps.store.transaction(async () => {
      if (removeAll) await subs.remove(channelId, sub.brandId);
      else await subs.setFlags(channelId, sub.brandId, { [kind!]: false });
      if (!stopAlerts) return;
      await deps.store.channelDetectorState.remove(channelId, sub.brandId);
      for (const row of await outbox.listHeld(channelId)) {
        if (
          row.brandId === sub.brandId &&
          (await outbox.markFailed(row.id, 'cancelled: the channel unsubscribed'))
        )
          cancelled += 1;
      }
    });
    await deps.auditLog.record({
      atMs: deps.clock.now(),
      userId,
      channelId,
      brandId: sub.brandId,
      action: SUBSCRIPTION_WRITES.unsubscribe,
      detail: { kind: kind ?? 'all', removed: removeAll, cancelledHeld: cancelled },
      result: 'ok',
    });
    const what = removeAll
      ? mrkdwn`alerts or digests`
      : kind === 'alerts'
        ? mrkdwn`alerts (the digest continues)`
        : mrkdwn`the daily digest (alerts continue)`;
    const held =
      cancelled > 0
        ? mrkdwn` ${cancelled} held alert message${cancelled === 1 ? mrkdwn` was` : mrkdwn`s were`} dropped.`
        : mrkdwn``;
    const again = commandFor('subscribe', sub, removeAll ? '' : kind!);
    const noteFailure = await postChannelNote(ctx.client, deps.logger, channelId, {
      by: userId,
      did: mrkdwn`unsubscribed this channel: it no longer gets ${what} for *${name}*.${held}`,
      undo: mrkdwn`${again} starts again.`,
    });
    await ctx.respond(
      withNoteOutcome(
        textReply(mrkdwn`This channel no longer gets ${what} for *${name}*.${held} ${again} starts again.`),
        noteFailure,
      ),
    );
  },
};
