import type { Migration } from '../migrate.js';

/**
 * Slack requests the bot accepted, so a redelivery (`X-Slack-Retry-Num`) is acknowledged
 * without being acted on twice, across restarts too. Rows expire after about an hour.
 */
export const handledRequests: Migration = {
  version: 5,
  name: 'handled-requests',
  sqlite: `
    CREATE TABLE handled_requests (
      request_key TEXT PRIMARY KEY,
      handled_at_ms INTEGER NOT NULL
    );
    CREATE INDEX handled_requests_by_time ON handled_requests (handled_at_ms);
  `,
  postgres: `
    CREATE TABLE handled_requests (
      request_key text PRIMARY KEY,
      handled_at_ms bigint NOT NULL
    );
    CREATE INDEX handled_requests_by_time ON handled_requests (handled_at_ms);
  `,
};
