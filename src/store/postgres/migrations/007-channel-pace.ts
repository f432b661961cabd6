import type { PostgresMigration } from '../migrate-postgres.js';

/**
 * When each channel may be posted to next, shared by every replica's relay so a channel
 * is paced once, not once per replica (SQLite migration 10).
 */
export const channelPace: PostgresMigration = {
  version: 7,
  name: 'channel-pace',
  sql: `
    CREATE TABLE channel_pace (
      channel_id text PRIMARY KEY,
      next_at_ms bigint NOT NULL
    );
  `,
};
