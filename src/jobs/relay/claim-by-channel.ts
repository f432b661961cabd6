import type { OutboxMessage } from '../../store/outbox-repo.js';
import type { RelayContext } from './relay-context.js';

/**
 * Rows of one channel per claim: a batch filled by one busy channel would keep every other
 * channel waiting on its pace; two keep the channel busy while the batch turns over.
 */
export const PER_CHANNEL_CLAIM = 2;

/**
 * Claims the rows due now, under a lease (one relay per row, across processes), at most
 * PER_CHANNEL_CLAIM per channel, and returns them grouped by channel, each channel's in
 * order. A row written ahead (a digest prepared before its local time) is not due before
 * its `sendAfterMs`; rows put back for later (a 429, a backoff, the pace) are not due
 * either. Empty when nothing is due.
 */
export async function claimByChannel(ctx: RelayContext): Promise<OutboxMessage[][]> {
  const { settings } = ctx;
  const rows = await ctx.outbox.claimDue(ctx.clock.now(), settings.batchSize, {
    owner: ctx.owner,
    leaseMs: settings.leaseMs,
    perChannel: PER_CHANNEL_CLAIM,
  });
  const byChannel = new Map<string, OutboxMessage[]>();
  for (const r of rows) byChannel.set(r.channelId, [...(byChannel.get(r.channelId) ?? []), r]);
  return [...byChannel.values()];
}
