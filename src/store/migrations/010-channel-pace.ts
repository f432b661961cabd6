import type { Migration } from '../migrate.js';

/**
 * When each channel may be posted to next (Slack: about one message per second per
 * channel; after a 429 not before its Retry-After). In the database rather than in a
 * relay's memory so every process delivering the outbox paces a channel once, together.
 * One row per channel the bot has posted to. (Releases that kept a separate Postgres series
 * numbered this 7 there; migrate-postgres.ts renumbers such a database.)
 */
export const channelPace: Migration = {
  version: 10,
  name: 'channel-pace',
  sqlite: `
    CREATE TABLE channel_pace (
      channel_id TEXT PRIMARY KEY,
      next_at_ms INTEGER NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE channel_pace (
      channel_id text PRIMARY KEY,
      next_at_ms bigint NOT NULL
    );
  `,
};
