import { isDatabaseUnavailable } from '../../store/database-unavailable.js';
import type { OutboxMessage } from '../../store/outbox-repo.js';
import { releaseHeldAlerts } from '../release-held-alerts.js';
import { claimByChannel } from './claim-by-channel.js';
import { deliverRow } from './deliver-row.js';
import { recoverSending } from './recover-sending.js';
import { DELIVERY_FLAG, freshDrainState, type Outcome, type RelayContext } from './relay-context.js';

export interface DrainResult {
  sent: number;
  /** Rescheduled: a retryable failure or a 429. */
  retried: number;
  /** Given up: a permanent error, maxAttempts reached, or the ops channel is gone. */
  failed: number;
  /** Not sent because the channel is gone or its subscriptions are paused. */
  paused: number;
  /** Held again (a mute began after the row was written). */
  held: number;
  /** 'sending' rows of a crashed relay resolved (found in history, or requeued). */
  recovered: number;
  /** Held rows delivered inside grouped messages. */
  merged: number;
}

/** A drain that did nothing. */
export const emptyDrainResult = (): DrainResult => ({
  sent: 0,
  retried: 0,
  failed: 0,
  paused: 0,
  held: 0,
  recovered: 0,
  merged: 0,
});

/**
 * One pass over the outbox: held rows whose hold ended are released (one grouped message
 * per brand per channel), crashed deliveries recovered, then batches claimed and delivered
 * until nothing is due or stop() is called. Throws when the database cannot be used (the
 * loop backs off); a post whose row could not be marked sent stays 'sending' and is found
 * in the channel history afterwards, so nothing is posted twice.
 */
export async function drainOutbox(ctx: RelayContext): Promise<DrainResult> {
  const result = emptyDrainResult();
  ctx.drain = freshDrainState();
  result.merged = (await releaseHeldAlerts(ctx.store.transaction, ctx.outbox, ctx.clock.now())).merged;
  result.recovered = await recoverSending(ctx);
  while (!ctx.stopSignal?.aborted) {
    const channels = await claimByChannel(ctx);
    if (channels.length === 0) break;
    await deliverBatch(ctx, channels, result);
  }
  if (ctx.drain.delivered && !ctx.drain.gaveUp) await ctx.health?.clear(DELIVERY_FLAG);
  return result;
}

/**
 * Channels in parallel, each channel in order at its own pace; outcomes added to `result`.
 * A database outage stops every channel after its current row and is thrown.
 */
async function deliverBatch(
  ctx: RelayContext,
  channels: OutboxMessage[][],
  result: DrainResult,
): Promise<void> {
  let outage: unknown;
  await Promise.all(
    channels.map(async (list) => {
      for (const row of list) {
        if (outage !== undefined) return;
        let outcome: Outcome;
        try {
          outcome = await deliverRow(ctx, row);
        } catch (err) {
          // The lease expires and recovery looks in the history before posting again.
          if (isDatabaseUnavailable(err)) outage = err;
          else ctx.logger.error({ err, outboxId: row.id }, 'delivering an outbox row failed unexpectedly');
          continue;
        }
        ctx.metrics?.observeDelivery(row.kind, outcome);
        if (outcome !== 'deferred') result[outcome] += 1;
      }
    }),
  );
  // The database stopped answering: the loop backs off and drains again afterwards.
  if (outage !== undefined) throw outage;
}
