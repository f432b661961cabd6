/**
 * Slack has no idempotency key (docs/slack.md): every post the relay makes
 * carries its outbox dedupe key in message metadata, and a post whose outcome is unknown is
 * looked up by that key in conversations.history before it is made again.
 * https://docs.slack.dev/messaging/message-metadata
 */
import type { OutboxMessage } from '../store/outbox-repo.js';

export const OUTBOX_METADATA_EVENT = 'visibility_bot_alert';

interface OutboxMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

/**
 * The builder's own metadata fields (brand, counts) are kept; `key` and `kind` are the
 * relay's and win. The builder's event type survives as `message_type`.
 */
export function outboxMetadata(row: Pick<OutboxMessage, 'dedupeKey' | 'kind' | 'payload'>): OutboxMetadata {
  const own = row.payload.metadata;
  return {
    event_type: OUTBOX_METADATA_EVENT,
    event_payload: {
      ...(own?.event_payload ?? {}),
      ...(own?.event_type && own.event_type !== OUTBOX_METADATA_EVENT
        ? { message_type: own.event_type }
        : {}),
      key: row.dedupeKey,
      kind: row.kind,
    },
  };
}

/** True when a message (as conversations.history returns it) carries `dedupeKey`. */
export function carriesKey(message: unknown, dedupeKey: string): boolean {
  const metadata = (message as { metadata?: { event_type?: unknown; event_payload?: { key?: unknown } } })
    ?.metadata;
  return metadata?.event_type === OUTBOX_METADATA_EVENT && metadata.event_payload?.key === dedupeKey;
}
