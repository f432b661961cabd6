/**
 * What the relay does after Slack said no, or nothing:
 * - a 429 holds the channel until its Retry-After; the row goes again then, its attempt
 *   not counted;
 * - channel_not_found / is_archived / not_in_channel pause the channel (pause-channel.ts);
 * - invalid_blocks / msg_blocks_too_long: the message goes out as its plain-text fallback;
 * - anything else is retried with exponential backoff; after maxAttempts the row fails,
 *   logged at error and raised as the bot's own trouble (DELIVERY_FLAG).
 */
import { backoffDelay } from '../../backoff-delay.js';
import { BLOCK_KIT_LIMITS as L } from '../../messages/block-kit-limit-table.js';
import { truncatePlain } from '../../messages/truncate-mrkdwn.js';
import type { OutboxMessage } from '../../store/outbox-repo.js';
import { classifySlackFailure, describeSlackError } from '../classify-slack-failure.js';
import { findPosted } from './find-posted.js';
import { markSent } from './mark-sent.js';
import { pauseChannel } from './pause-channel.js';
import { postMessage } from './post-message.js';
import { DELIVERY_FLAG, type Outcome, type RelayContext, UNCONFIRMED } from './relay-context.js';

/** What to do after Slack said no (or nothing). `fallback`: the text-only retry is still possible. */
export async function settleFailure(
  ctx: RelayContext,
  row: OutboxMessage,
  err: unknown,
  fallback: boolean,
): Promise<Outcome> {
  const { outbox, logger } = ctx;
  const f = classifySlackFailure(err);
  const now = ctx.clock.now();
  switch (f.kind) {
    case 'rate_limited':
      await ctx.pacer.blockUntil(row.channelId, now + f.retryAfterMs);
      // Slack did nothing with the call: not an attempt.
      await outbox.requeue(row.id, now + f.retryAfterMs);
      logger.warn(
        { outboxId: row.id, channel: row.channelId, retryAfterMs: f.retryAfterMs },
        'Slack rate limited the channel; retrying after Retry-After',
      );
      return 'retried';
    case 'channel_gone':
      return await pauseChannel(ctx, row, f.code, now);
    case 'content_rejected':
      if (fallback) return postText(ctx, row, f.code);
      await outbox.markFailed(row.id, f.code);
      logger.error({ outboxId: row.id, slackError: f.code }, 'Slack refused even the plain-text message');
      return 'failed';
    case 'permanent':
      await outbox.markFailed(row.id, f.code);
      logger.error(
        { outboxId: row.id, channel: row.channelId, slackError: f.code },
        'Slack refused the message',
      );
      return 'failed';
    case 'transient':
      return retryOrFail(ctx, row, describeSlackError(err), f.unconfirmed);
  }
}

/** A retryable failure: back off, or give up after maxAttempts (checking history one last time). */
export async function retryOrFail(
  ctx: RelayContext,
  row: OutboxMessage,
  description: string,
  unconfirmed: boolean,
): Promise<Outcome> {
  const { outbox, logger, settings: s } = ctx;
  const now = ctx.clock.now();
  if (row.attempts < s.maxAttempts) {
    const at =
      now + backoffDelay(row.attempts - 1, { baseDelayMs: s.backoffBaseMs, maxDelayMs: s.backoffMaxMs });
    await outbox.markRetry(row.id, `${unconfirmed ? UNCONFIRMED : ''}${description}`, at);
    logger.warn(
      { outboxId: row.id, channel: row.channelId, attempt: row.attempts, error: description, retryAt: at },
      'delivery failed; will retry',
    );
    return 'retried';
  }
  if (unconfirmed) {
    const ts = await findPosted(ctx, row).catch(() => null);
    if (ts) return await markSent(ctx, row, ts, 'found in history');
  }
  const reason = `gave up after ${row.attempts} attempts: ${description}`;
  await outbox.markFailed(row.id, reason);
  logger.error({ outboxId: row.id, channel: row.channelId, kind: row.kind, error: description }, reason);
  if (row.kind !== 'ops') {
    ctx.drain.gaveUp = true;
    await ctx.health?.raise(DELIVERY_FLAG, `outbox #${row.id} to ${row.channelId}: ${reason}`);
  }
  return 'failed';
}

/** The blocks were refused: the fallback text carries the same news. */
async function postText(ctx: RelayContext, row: OutboxMessage, code: string): Promise<Outcome> {
  ctx.logger.warn({ outboxId: row.id, slackError: code }, 'Slack refused the blocks; sending the plain text');
  try {
    const ts = await postMessage(ctx, row, { text: truncatePlain(row.payload.text, L.fallbackText) });
    return await markSent(ctx, row, ts, `text fallback (${code})`);
  } catch (err) {
    return settleFailure(ctx, row, err, false);
  }
}
