/**
 * One outbox row for a subscription's channel. The dedupe key is the channel plus the
 * message's own key (which names exactly what is inside), and the message carries that
 * dedupe key, so writing the same thing again is a no-op and a post whose answer was lost
 * can be found in the channel's history.
 */
import type { OutboxKind, OutboxPayload, OutboxRepo } from '../store/outbox-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';

export interface ChannelMessage {
  kind: OutboxKind;
  key: string;
  /** The message, carrying `dedupeKey`. */
  build(dedupeKey: string): OutboxPayload;
  /** Held (mute, snooze, quiet hours) until then; null or absent: due now. */
  holdUntilMs?: number | null;
  /** Not to be posted before then (a digest prepared ahead); null or absent: due now. */
  sendAfterMs?: number | null;
}

/** The outbox dedupe key of `key` in `channelId`. */
export const channelDedupeKey = (channelId: string, key: string): string => `${channelId}:${key}`;

/** True when a row was written (false: one with this dedupe key already exists). */
export function enqueueForChannel(
  outbox: Pick<OutboxRepo, 'enqueue'>,
  sub: Pick<Subscription, 'channelId' | 'brandId'>,
  message: ChannelMessage,
  nowMs: number,
): boolean {
  const dedupeKey = channelDedupeKey(sub.channelId, message.key);
  return outbox.enqueue({
    dedupeKey,
    channelId: sub.channelId,
    brandId: sub.brandId,
    kind: message.kind,
    payload: message.build(dedupeKey),
    nowMs,
    holdUntilMs: message.holdUntilMs ?? null,
    sendAfterMs: message.sendAfterMs ?? null,
  }).created;
}
