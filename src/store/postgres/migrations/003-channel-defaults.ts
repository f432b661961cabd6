import type { PostgresMigration } from '../migrate-postgres.js';

/** `/visibility use <brand>`: a channel's default brand (SQLite migration 3). */
export const channelDefaults: PostgresMigration = {
  version: 3,
  name: 'channel-defaults',
  sql: `
    CREATE TABLE channel_defaults (
      channel_id text PRIMARY KEY,
      brand_id text NOT NULL,
      set_by text NOT NULL,
      set_at_ms bigint NOT NULL
    );
  `,
};
