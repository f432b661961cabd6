/**
 * "Acknowledge" on an alert (vis:alert:ack): the alert message itself is edited for
 * everyone in the channel to say who acknowledged it, and the button goes (a later click on
 * a stale copy replaces the name, it does not add a second line). Audited.
 */

import { ALERT_ACTIONS, acknowledgedBlocks } from '../../../messages/alert-message.js';
import type { KnownBlock } from '../../../messages/block-kit-types.js';
import { mrkdwn } from '../../../messages/mrkdwn.js';
import { UserError } from '../../../messages/user-error.js';
import type { ActionHandler } from '../../actions/action-handler.js';

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

export const alertAck: ActionHandler = {
  prefix: ALERT_ACTIONS.ack,
  async run(ctx) {
    const message = clickedMessage(ctx.body);
    // Slack sends no message for ephemeral ones; ours are posted in the channel.
    if (!message)
      throw new UserError(
        'stale_action',
        mrkdwn`This alert can no longer be acknowledged here; it may have been deleted.`,
      );
    const record = (result: string) =>
      ctx.deps.auditLog.record({
        atMs: ctx.deps.clock.now(),
        userId: ctx.userId,
        channelId: message.channelId,
        brandId: message.brandId,
        action: 'alert.acknowledge',
        detail: { messageTs: message.ts, alertKey: ctx.action.value ?? null },
        result,
      });
    try {
      await ctx.client.chat.update({
        channel: message.channelId,
        ts: message.ts,
        text: message.text,
        blocks: acknowledgedBlocks(message.blocks, ctx.userId),
      });
    } catch (err) {
      const code = (err as { data?: { error?: unknown } }).data?.error;
      record(`error: ${typeof code === 'string' ? code : 'unexpected'}`);
      throw err;
    }
    record('ok');
  },
};
