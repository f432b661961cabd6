import type { PostgresMigration } from '../migrate-postgres.js';

/** What the last poll of each source saw per brand, and when (SQLite migration 6). */
export const pollObservations: PostgresMigration = {
  version: 6,
  name: 'poll-observations',
  sql: `
    CREATE TABLE poll_observations (
      brand_id text NOT NULL,
      source text NOT NULL,
      observed_at_ms bigint NOT NULL,
      data jsonb NOT NULL,
      PRIMARY KEY (brand_id, source)
    );
  `,
};
