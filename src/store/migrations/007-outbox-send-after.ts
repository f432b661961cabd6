import { type Migration, POSTGRES_STARTED_LATER } from '../migrate.js';

/**
 * A row may be written before it may be posted: the digest is prepared ahead of its local
 * time and must not go out early. `send_after_ms` is that time (NULL: as soon as it is due);
 * it is kept apart from `next_attempt_at_ms`, which retries and pacing move, so the row
 * still says when it was meant to go out.
 */
export const outboxSendAfter: Migration = {
  version: 7,
  name: 'outbox-send-after',
  sqlite: `
    ALTER TABLE outbox ADD COLUMN send_after_ms INTEGER;
  `,
  postgres: POSTGRES_STARTED_LATER,
};
