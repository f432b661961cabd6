import type { OutboxMessage } from '../../store/outbox-repo.js';
import { pauseReason } from '../pause-reason.js';
import type { Outcome, RelayContext } from './relay-context.js';

/**
 * Slack says the channel is gone (channel_not_found, is_archived, not_in_channel): its
 * subscriptions are paused with the reason, the row fails with it, and the rest of the
 * drain sends nothing more there. The ops channel has no subscriptions: its report fails.
 */
export async function pauseChannel(
  ctx: RelayContext,
  row: OutboxMessage,
  code: string,
  nowMs: number,
): Promise<Outcome> {
  const { outbox, logger } = ctx;
  ctx.drain.gone.set(row.channelId, code);
  const reason = pauseReason(code);
  if (row.kind === 'ops') {
    await outbox.markFailed(row.id, `channel: ${reason}`);
    logger.error(
      { outboxId: row.id, channel: row.channelId, slackError: code },
      'SLACK_OPS_CHANNEL refused the report',
    );
    return 'failed';
  }
  const n = await ctx.subscriptions.pauseChannel(row.channelId, reason, nowMs);
  await outbox.markFailed(row.id, `channel: ${reason}`);
  logger.warn(
    { outboxId: row.id, channel: row.channelId, slackError: code, pausedSubscriptions: n },
    'channel refused delivery; its subscriptions are paused',
  );
  return 'paused';
}
