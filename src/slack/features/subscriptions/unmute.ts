/**
 * `unmute <brand>`: ends a mute now. The alerts it held are released (unless quiet hours or
 * a snooze still hold them) and posted together at once; the reply says which still wait,
 * and until when. Admins only when SLACK_ADMIN_USERS is set; audited.
 */

import { mrkdwn } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { liftMute } from '../../../use-cases/lift-mute.js';
import type { Subcommand } from '../../commands/subcommand.js';
import { brandName } from '../../views/brand-name.js';
import { heldAlertsText } from './held-alerts-text.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { resolveSubscribedBrand } from './resolve-subscribed-brand.js';
import { SUBSCRIPTION_WRITES } from './subscription-writes.js';
import { commandFor } from './subscriptions-view.js';

export const unmute: Subcommand = {
  name: 'unmute',
  group: 'Alerts',
  usage: '/visibility unmute <brand>',
  summary:
    'End a mute now; the alerts it held are posted at once, together (unless quiet hours still hold them).',
  examples: ['/visibility unmute "Acme Analytics"'],
  async run(ctx) {
    const { deps, channelId, userId } = ctx;
    await ctx.requireWriter(SUBSCRIPTION_WRITES.unmute);
    const token = ctx.args.positional.join(' ').trim();
    const sub = await resolveSubscribedBrand(deps, channelId, token === '' ? undefined : token);
    const now = deps.clock.now();
    const name = brandName(sub.brandName);
    if (sub.mutedUntilMs === null || sub.mutedUntilMs <= now) {
      await ctx.respond(
        textReply(mrkdwn`Alerts for *${name}* are not muted in this channel; nothing changed.`),
      );
      return;
    }
    const outcome = await liftMute(deps, sub, deps.config.defaultTimezone, now);
    await deps.auditLog.record({
      atMs: now,
      userId,
      channelId,
      brandId: sub.brandId,
      action: SUBSCRIPTION_WRITES.unmute,
      detail: { released: outcome.released, stillHeld: outcome.stillHeld.length },
      result: 'ok',
    });
    const held = heldAlertsText(outcome);
    const noteFailure = await postChannelNote(ctx.client, deps.logger, channelId, {
      by: userId,
      did: mrkdwn`ended the mute: alerts for *${name}* are back on in this channel.${held}`,
      undo: mrkdwn`${commandFor('mute', sub, '2 hours')} mutes them again.`,
    });
    await ctx.respond(
      withNoteOutcome(
        textReply(mrkdwn`:bell: Alerts for *${name}* are back on in this channel.${held}`),
        noteFailure,
      ),
    );
  },
};
