import type { OutboxMessage } from '../../store/outbox-repo.js';
import { classifySlackFailure, describeSlackError } from '../classify-slack-failure.js';
import { findPosted } from './find-posted.js';
import { markSent } from './mark-sent.js';
import { pauseChannel } from './pause-channel.js';
import type { RelayContext } from './relay-context.js';

/**
 * Resolves the 'sending' rows whose lease expired (a relay crashed, or lost the database,
 * mid-call): found in the channel history → sent with that ts; not found → back to
 * pending. A history check that fails leaves the row 'sending' for the next drain rather
 * than risk a repost. Returns how many rows were resolved.
 */
export async function recoverSending(ctx: RelayContext): Promise<number> {
  const { clock, logger } = ctx;
  const now = clock.now();
  let resolved = 0;
  for (const row of await ctx.outbox.listSending(now)) {
    try {
      const ts = await findPosted(ctx, row);
      if (ts) {
        await markSent(ctx, row, ts, 'found in history after a crash');
        resolved += 1;
      } else if (await requeueIfStillStale(ctx, row, now)) {
        logger.info(
          { outboxId: row.id, channel: row.channelId },
          'crashed delivery not in history; requeued',
        );
        resolved += 1;
      }
    } catch (err) {
      const f = classifySlackFailure(err);
      if (f.kind === 'channel_gone') {
        await pauseChannel(ctx, row, f.code, now);
        resolved += 1;
      } else if (f.kind === 'rate_limited') {
        await ctx.pacer.blockUntil(row.channelId, now + f.retryAfterMs);
      } else {
        // Left in 'sending': the next drain looks again rather than risk a repost.
        logger.warn(
          { outboxId: row.id, error: describeSlackError(err) },
          'history check failed; will look again',
        );
      }
    }
  }
  return resolved;
}

/** Back to 'pending' only if nobody claimed it since we saw it (another relay may have). */
function requeueIfStillStale(ctx: RelayContext, row: OutboxMessage, atMs: number): Promise<boolean> {
  const { outbox } = ctx;
  return ctx.store.transaction(async () => {
    const cur = await outbox.get(row.id);
    if (
      cur?.status !== 'sending' ||
      cur.leaseOwner !== row.leaseOwner ||
      cur.leaseUntilMs !== row.leaseUntilMs
    )
      return false;
    return outbox.requeue(row.id, atMs);
  });
}
