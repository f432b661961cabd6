import { type Migration, POSTGRES_STARTED_LATER } from '../migrate.js';

/**
 * Charts go through the outbox like every other post: a `chart` row, rendered when it is
 * delivered. `upload_file_id` is the Slack file id reserved for the row's upload, written
 * before the bytes go out, so a relay that crashed mid-upload can look for that very file
 * in the channel before uploading again.
 *
 * SQLite cannot change a CHECK constraint in place: the table is rebuilt with the new kind
 * (inside the migration's transaction; no other table references it).
 */
export const outboxCharts: Migration = {
  version: 9,
  name: 'outbox-charts',
  sqlite: `
    CREATE TABLE outbox_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      dedupe_key TEXT NOT NULL UNIQUE,
      channel_id TEXT NOT NULL,
      brand_id TEXT,
      kind TEXT NOT NULL CHECK (kind IN ('alert', 'digest', 'ops', 'chart')),
      payload TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'held', 'sending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at_ms INTEGER NOT NULL,
      hold_until_ms INTEGER,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      slack_ts TEXT,
      created_at_ms INTEGER NOT NULL,
      sent_at_ms INTEGER,
      send_after_ms INTEGER,
      upload_file_id TEXT
    );
    INSERT INTO outbox_new (id, dedupe_key, channel_id, brand_id, kind, payload, status, attempts,
      next_attempt_at_ms, hold_until_ms, lease_owner, lease_until_ms, last_error, slack_ts,
      created_at_ms, sent_at_ms, send_after_ms)
    SELECT id, dedupe_key, channel_id, brand_id, kind, payload, status, attempts,
      next_attempt_at_ms, hold_until_ms, lease_owner, lease_until_ms, last_error, slack_ts,
      created_at_ms, sent_at_ms, send_after_ms
    FROM outbox;
    DROP TABLE outbox;
    ALTER TABLE outbox_new RENAME TO outbox;
    CREATE INDEX outbox_status ON outbox (status, next_attempt_at_ms);
  `,
  postgres: POSTGRES_STARTED_LATER,
};
