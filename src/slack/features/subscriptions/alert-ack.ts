/**
 * "Acknowledge" on an alert message (vis:alert:ack, the whole message) or in one alert's
 * menu (one row, see alert-menu.ts): the alert message itself is edited for
 * everyone in the channel to say who acknowledged it, and the button goes (a later click on
 * a stale copy replaces the name, it does not add a second line). Audited.
 */

import {
  ALERT_ACTIONS,
  ALERT_BLOCK_IDS,
  acknowledgedBlocks,
  acknowledgedRowBlocks,
} from '../../../messages/alert-message.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError, UserErrorCode } from '../../../messages/user-error.js';
import type { ActionContext, ActionHandler } from '../../actions/action-handler.js';

interface ClickedMessage {
  channelId: string;
  ts: string;
  text: string;
  blocks: KnownBlock[];
  brandId: string | null;
}

/** The message the button is on, from the block_actions payload (container + message). */
export function clickedMessage(body: unknown): ClickedMessage | null {
  const b = body as {
    container?: { channel_id?: unknown; message_ts?: unknown };
    channel?: { id?: unknown };
    message?: {
      ts?: unknown;
      text?: unknown;
      blocks?: unknown;
      metadata?: { event_payload?: { brand_id?: unknown } };
    };
  };
  const channelId = b.container?.channel_id ?? b.channel?.id;
  const ts = b.container?.message_ts ?? b.message?.ts;
  const blocks = b.message?.blocks;
  if (typeof channelId !== 'string' || typeof ts !== 'string' || !Array.isArray(blocks)) return null;
  const brandId = b.message?.metadata?.event_payload?.brand_id;
  return {
    channelId,
    ts,
    text: typeof b.message?.text === 'string' ? b.message.text : 'Alert',
    blocks: blocks as KnownBlock[],
    brandId: typeof brandId === 'string' ? brandId : null,
  };
}

/** Edits the clicked message to `blocks`, audited with the outcome either way. */
async function updateAcknowledged(
  ctx: ActionContext,
  message: ClickedMessage,
  blocks: KnownBlock[],
  alertKey: string | null,
): Promise<void> {
  const record = (result: string) =>
    ctx.deps.auditLog.record({
      atMs: ctx.deps.clock.now(),
      userId: ctx.userId,
      channelId: message.channelId,
      brandId: message.brandId,
      action: 'alert.acknowledge',
      detail: { messageTs: message.ts, alertKey },
      result,
    });
  try {
    await ctx.client.chat.update({ channel: message.channelId, ts: message.ts, text: message.text, blocks });
  } catch (err) {
    const code = (err as { data?: { error?: unknown } }).data?.error;
    await record(`error: ${typeof code === 'string' ? code : 'unexpected'}`);
    throw err;
  }
  await record('ok');
  // Time to acknowledge, for the alert history: the first acknowledgement counts.
  const state = await ctx.deps.store.alertStates.findByMessage(message.channelId, message.ts);
  if (state)
    await ctx.deps.store.alertStates.acknowledge(state.id, {
      byUserId: ctx.userId,
      atMs: ctx.deps.clock.now(),
    });
}

function requireMessage(ctx: ActionContext): ClickedMessage {
  const message = clickedMessage(ctx.body);
  // Slack sends no message for ephemeral ones; ours are posted in the channel.
  if (!message)
    throw new UserError(
      UserErrorCode.StaleAction,
      mrkdwn`This alert can no longer be acknowledged here; it may have been deleted.`,
    );
  return message;
}

/**
 * "Acknowledge" in one alert's menu: only that alert's row says who, the rest of the
 * message stays open for others to handle. The row's block id names the alert.
 */
export async function acknowledgeAlertRow(ctx: ActionContext): Promise<void> {
  const message = requireMessage(ctx);
  const rowId = ctx.action.blockId;
  const blocks =
    rowId === undefined ? null : acknowledgedRowBlocks(message.blocks, rowId, ctx.userId, message.brandId);
  if (!blocks || rowId === undefined)
    throw new UserError(
      UserErrorCode.StaleAction,
      mrkdwn`That alert is no longer in this message; nothing was changed.`,
    );
  const alertKey = rowId.slice(ALERT_BLOCK_IDS.rowPrefix.length).replace(/^\d+:/, '');
  await updateAcknowledged(ctx, message, blocks, alertKey);
}

/** The message's Acknowledge button (value: the group key): the whole message. */
export const alertAck: ActionHandler = {
  prefix: ALERT_ACTIONS.ack,
  async run(ctx) {
    const message = requireMessage(ctx);
    await updateAcknowledged(
      ctx,
      message,
      acknowledgedBlocks(message.blocks, ctx.userId),
      ctx.action.value ?? null,
    );
  },
};
