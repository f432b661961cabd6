/** An alert outbox message numbered `n` (channel C1, brand b1), for the outbox tests. */
import type { NewOutboxMessage } from '../../src/store/outbox-repo.js';

export const alertMessage = (
  n: number,
  nowMs: number,
  extra: Partial<NewOutboxMessage> = {},
): NewOutboxMessage => ({
  dedupeKey: `C1:alerts:b1:${n}`,
  channelId: 'C1',
  brandId: 'b1',
  kind: 'alert',
  payload: {
    text: `alert ${n}`,
    blocks: [{ type: 'section' }],
    metadata: { event_type: 'visibility_alert', event_payload: { dedupe_key: `k${n}` } },
  },
  nowMs,
  ...extra,
});
