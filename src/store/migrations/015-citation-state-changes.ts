import type { Migration } from '../migrate.js';

/**
 * A citations run changes a few dozen of a brand's ~500 URLs; rewriting the brand's whole
 * packed row (tens of kB) for them was a third of a run. Each changed URL's entry is now
 * its own row here, written next to the brand's packed row in citation_state, which stays
 * the base: loading reads the base and lays these rows over it, and once a brand's change
 * rows grow to a fair share of its base they are folded into a new base and deleted
 * (citation-state.ts). Existing packed rows are the base as they are: nothing to convert.
 *
 * `entry` is one packed entry (citation-state-packing.ts). WITHOUT ROWID on SQLite: small
 * rows read by a range scan of the primary key.
 */
export const citationStateChanges: Migration = {
  version: 15,
  name: 'citation-state-changes',
  sqlite: `
    CREATE TABLE citation_state_changes (
      brand_id TEXT NOT NULL,
      url TEXT NOT NULL,
      entry TEXT NOT NULL,
      updated_at_ms INTEGER NOT NULL,
      PRIMARY KEY (brand_id, url)
    ) WITHOUT ROWID;
  `,
  postgres: `
    CREATE TABLE citation_state_changes (
      brand_id text NOT NULL,
      url text NOT NULL,
      entry jsonb NOT NULL,
      updated_at_ms bigint NOT NULL,
      PRIMARY KEY (brand_id, url)
    );
  `,
};
