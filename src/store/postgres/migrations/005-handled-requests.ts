import type { PostgresMigration } from '../migrate-postgres.js';

/**
 * Slack requests the bot accepted, so a redelivery (`X-Slack-Retry-Num`) is acknowledged
 * without being acted on twice, whichever replica receives it (SQLite migration 5).
 */
export const handledRequests: PostgresMigration = {
  version: 5,
  name: 'handled-requests',
  sql: `
    CREATE TABLE handled_requests (
      request_key text PRIMARY KEY,
      handled_at_ms bigint NOT NULL
    );
    CREATE INDEX handled_requests_by_time ON handled_requests (handled_at_ms);
  `,
};
