import type { Migration } from '../migrate.js';

/**
 * What the last poll of each source saw per brand (JSON), and when: the digest reuses it
 * instead of fetching again, the citations job sizes `days_back` from the snapshot date it
 * saw, and the AI Pages job forecasts usage from its samples.
 */
export const pollObservations: Migration = {
  version: 6,
  name: 'poll-observations',
  sqlite: `
    CREATE TABLE poll_observations (
      brand_id TEXT NOT NULL,
      source TEXT NOT NULL,
      observed_at_ms INTEGER NOT NULL,
      data TEXT NOT NULL,
      PRIMARY KEY (brand_id, source)
    );
  `,
  postgres: `
    CREATE TABLE poll_observations (
      brand_id text NOT NULL,
      source text NOT NULL,
      observed_at_ms bigint NOT NULL,
      data jsonb NOT NULL,
      PRIMARY KEY (brand_id, source)
    );
  `,
};
