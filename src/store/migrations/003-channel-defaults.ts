import type { Migration } from '../migrate.js';

/** `/visibility use <brand>`: a channel's default brand. */
export const channelDefaults: Migration = {
  version: 3,
  name: 'channel-defaults',
  sqlite: `
    CREATE TABLE channel_defaults (
      channel_id TEXT PRIMARY KEY,
      brand_id TEXT NOT NULL,
      set_by TEXT NOT NULL,
      set_at_ms INTEGER NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE channel_defaults (
      channel_id text PRIMARY KEY,
      brand_id text NOT NULL,
      set_by text NOT NULL,
      set_at_ms bigint NOT NULL
    );
  `,
};
