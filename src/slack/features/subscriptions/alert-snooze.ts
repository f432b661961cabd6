/**
 * "Snooze 24 h" on an alert (vis:alert:snooze, value {brandId, kind}, or the Snooze option
 * of an alert's menu, see alert-menu.ts): that kind of alert
 * for that brand in that channel is muted for 24 hours (docs/alert-semantics.md); the
 * person who clicked is told until when, privately, and the channel who snoozed what. Audited. Anyone who can see the alert
 * may snooze it: it only quiets this channel, and it ends by itself. Both messages carry
 * an Undo button (vis:alert:unsnooze) that lifts the snooze at once and releases the
 * alerts it held; anyone who could snooze may undo.
 */

import { type AlertKind, alertKinds } from '../../../alerts/types.js';
import { ALERT_ACTIONS, ALERT_KIND_WORDS } from '../../../messages/alert-message.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { channelMention, escapeMrkdwn, mrkdwn, slackDate } from '../../../messages/mrkdwn.js';
import { textReply } from '../../../messages/reply.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import { changeHolds } from '../../../use-cases/change-holds.js';
import type { ActionContext, ActionHandler } from '../../actions/action-handler.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { brandButton } from '../../views/brand-button.js';
import { heldAlertsText } from './held-alerts-text.js';
import { postChannelNote, withNoteOutcome } from './post-channel-note.js';
import { SUBSCRIPTION_ACTIONS } from './subscription-actions.js';

export const SNOOZE_MS = 24 * 60 * 60 * 1000;

/** Same words as the button ("Snooze lost-page alerts 24 h"), as a sentence starts. */
const kindLabel = (kind: AlertKind): string => {
  const words = ALERT_KIND_WORDS[kind].alerts;
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const isAlertKind = (k: unknown): k is AlertKind => alertKinds.includes(k as AlertKind);

/** The Undo button under a snooze's note and confirmation. */
function undoBlock(brandId: string, kind: AlertKind): KnownBlock {
  return {
    type: 'actions',
    block_id: `${SUBSCRIPTION_ACTIONS.unsnooze}:${kind}`,
    elements: [brandButton(mrkdwn`Undo snooze`, SUBSCRIPTION_ACTIONS.unsnooze, { brandId, kind })],
  };
}

const brandNameOf = (ctx: ActionContext, brandId: string): Promise<string | null> =>
  ctx
    .resolveBrand(brandId)
    .then((b) => b.name)
    .catch(() => null);

/** Snoozes one kind of the brand's alerts in the clicked channel; the Snooze button and an alert's menu both end here. */
export async function snoozeAlertKind(ctx: ActionContext, brandId: string, kind: AlertKind): Promise<void> {
  const channelId = ctx.channelId;
  if (!channelId)
    throw new UserError(UserErrorCode.StaleAction, mrkdwn`There is no channel to snooze alerts in.`);
  const now = ctx.deps.clock.now();
  const untilMs = now + SNOOZE_MS;
  await ctx.deps.store.snoozes.snooze({
    channelId,
    brandId,
    kind,
    untilMs,
    createdBy: ctx.userId,
    createdAtMs: now,
  });
  await ctx.deps.auditLog.record({
    atMs: now,
    userId: ctx.userId,
    channelId,
    brandId,
    action: 'alert.snooze',
    detail: { kind, untilMs },
    result: 'ok',
  });
  const name = await brandNameOf(ctx, brandId);
  const whose = name ? mrkdwn` for *${escapeMrkdwn(name)}*` : mrkdwn``;
  const noteFailure = await postChannelNote(
    ctx.client,
    ctx.deps.logger,
    channelId,
    {
      by: ctx.userId,
      did: mrkdwn`snoozed ${escapeMrkdwn(kindLabel(kind).toLowerCase())}${whose} in this channel until ${slackDate(untilMs)}.`,
      undo: mrkdwn`They come back by themselves then, or at once with *Undo snooze*; other alerts still come through.`,
    },
    [undoBlock(brandId, kind)],
  );
  const reply = textReply(
    mrkdwn`:zzz: ${escapeMrkdwn(kindLabel(kind))}${whose} are snoozed in ${channelMention(channelId)} until ${slackDate(untilMs)}. Other alerts still come through. *Undo snooze* lifts it now.`,
    { replaceOriginal: false },
  );
  await ctx.respond(
    withNoteOutcome({ ...reply, blocks: [...reply.blocks, undoBlock(brandId, kind)] }, noteFailure),
  );
}

/** Undo snooze: the kind is back on in the clicked channel, and what only the snooze held is released. */
export const alertUnsnooze: ActionHandler = {
  prefix: SUBSCRIPTION_ACTIONS.unsnooze,
  async run(ctx) {
    const { brandId, kind } = parseActionValue(ctx.action.value);
    const channelId = ctx.channelId;
    if (typeof brandId !== 'string' || !isAlertKind(kind) || !channelId)
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That button is from an older message; run the command again.`,
      );
    const now = ctx.deps.clock.now();
    const name = await brandNameOf(ctx, brandId);
    const whose = name ? mrkdwn` for *${escapeMrkdwn(name)}*` : mrkdwn``;
    const label = escapeMrkdwn(kindLabel(kind));
    const snoozes = ctx.deps.store.snoozes;
    if (!(await snoozes.active(channelId, brandId, now)).has(kind)) {
      await ctx.respond(
        textReply(mrkdwn`${label}${whose} are not snoozed in this channel (any more); nothing changed.`, {
          replaceOriginal: false,
        }),
      );
      return;
    }
    const outcome = await changeHolds(
      ctx.deps,
      { channelId, brandId },
      () => snoozes.clear(channelId, brandId, kind),
      ctx.deps.config.defaultTimezone,
      now,
    );
    await ctx.deps.auditLog.record({
      atMs: now,
      userId: ctx.userId,
      channelId,
      brandId,
      action: 'alert.unsnooze',
      detail: { kind, released: outcome.released, stillHeld: outcome.stillHeld.length },
      result: 'ok',
    });
    const held = heldAlertsText(outcome);
    const noteFailure = await postChannelNote(ctx.client, ctx.deps.logger, channelId, {
      by: ctx.userId,
      did: mrkdwn`lifted the snooze: ${escapeMrkdwn(kindLabel(kind).toLowerCase())}${whose} are back on in this channel.${held}`,
      undo: mrkdwn`*Snooze* on an alert quiets them again.`,
    });
    await ctx.respond(
      withNoteOutcome(
        textReply(mrkdwn`:bell: ${label}${whose} are back on in ${channelMention(channelId)}.${held}`, {
          replaceOriginal: false,
        }),
        noteFailure,
      ),
    );
  },
};

export const alertSnooze: ActionHandler = {
  prefix: ALERT_ACTIONS.snooze,
  async run(ctx) {
    const { brandId, kind } = parseActionValue(ctx.action.value);
    if (typeof brandId !== 'string' || !isAlertKind(kind))
      throw new UserError(
        UserErrorCode.StaleAction,
        mrkdwn`That button is from an older message; run the command again.`,
      );
    await snoozeAlertKind(ctx, brandId, kind);
  },
};
