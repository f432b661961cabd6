import { isWeeklyDedupeKey } from '../../alerts/weekly-due.js';
import type { OutboxMessage } from '../../store/outbox-repo.js';
import type { Subscription } from '../../store/subscriptions-repo.js';
import { pauseReason } from '../pause-reason.js';
import { goneOutcome, type Outcome, type RelayContext } from './relay-context.js';

/**
 * Whether a claimed row is still to be posted now. It is not when its channel was found
 * gone in this drain, its subscription is paused, the digest (weekly summary, digest
 * chart) it is was turned off after it was written ahead, or a mute began after it was
 * written (an alert is held until the mute ends). Returns what became of such a row, and
 * undefined for a row to post.
 */
export async function screenRow(
  ctx: RelayContext,
  row: OutboxMessage,
  nowMs: number,
): Promise<Outcome | undefined> {
  const { outbox } = ctx;
  const goneCode = ctx.drain.gone.get(row.channelId);
  if (goneCode !== undefined) {
    await outbox.markFailed(row.id, `channel: ${pauseReason(goneCode)}`);
    return goneOutcome(row);
  }
  if (row.brandId === null || row.kind === 'ops') return undefined;
  const sub = await ctx.subscriptions.get(row.channelId, row.brandId);
  const refusal = unwantedReason(row, sub);
  if (refusal !== undefined) {
    await outbox.markFailed(row.id, refusal);
    return 'paused';
  }
  if (row.kind === 'alert' && sub?.mutedUntilMs != null && sub.mutedUntilMs > nowMs) {
    await outbox.hold(row.id, sub.mutedUntilMs);
    return 'held';
  }
  return undefined;
}

/** Why the subscription no longer wants the row (its last_error), if it does not. */
function unwantedReason(row: OutboxMessage, sub: Subscription | null): string | undefined {
  if (sub?.pausedReason) return `subscription paused: ${sub.pausedReason}`;
  // A weekly summary (and its chart) is the digest kind but follows weekly=, not the digest.
  const weekly = isWeeklyDedupeKey(row.dedupeKey);
  if (weekly) return sub?.settings.weekly ? undefined : 'weekly summary turned off before it was posted';
  // Prepared ahead, then the channel turned its digest off (or unsubscribed).
  if ((row.kind === 'digest' || row.kind === 'chart') && !sub?.digest)
    return 'digest turned off before it was posted';
  if (row.kind === 'chart' && !sub?.settings.digestChart)
    return 'digest chart turned off before it was posted';
  return undefined;
}
