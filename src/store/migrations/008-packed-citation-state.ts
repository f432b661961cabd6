import { type Migration, POSTGRES_STARTED_LATER } from '../migrate.js';

/**
 * Citation state as one row per brand instead of one per (brand, URL): a run reads and
 * writes each brand's state whole, and 500 rows per brand made that the slowest part of
 * a run (see citation-state-repo.ts). `state` holds the columns the repository packs, in
 * its order (url, presence, presence_at_ms, sentiment, sentiment_at_ms, competitors,
 * version, last_event); the existing rows are packed into it here, each brand's eight
 * arrays filled by the same scan so they stay in the same order, and nothing known is
 * lost, so the next run alerts on nothing it already knew. `url_count` answers "how many
 * URLs" without parsing the state.
 *
 * A plain rowid table, not WITHOUT ROWID: SQLite advises against WITHOUT ROWID for rows
 * this large (tens of kB).
 */
export const packedCitationState: Migration = {
  version: 8,
  name: 'packed-citation-state',
  sqlite: `
    ALTER TABLE citation_state RENAME TO citation_state_rows;
    CREATE TABLE citation_state (
      brand_id TEXT PRIMARY KEY,
      url_count INTEGER NOT NULL,
      state TEXT NOT NULL,
      updated_at_ms INTEGER NOT NULL
    );
    INSERT INTO citation_state (brand_id, url_count, state, updated_at_ms)
      SELECT brand_id, COUNT(*),
        json_array(json_group_array(url), json_group_array(presence), json_group_array(presence_at_ms),
          json_group_array(sentiment), json_group_array(sentiment_at_ms),
          json_group_array(json(competitors)), json_group_array(version), json_group_array(last_event)),
        MAX(updated_at_ms)
      FROM citation_state_rows GROUP BY brand_id;
    DROP TABLE citation_state_rows;
  `,
  postgres: POSTGRES_STARTED_LATER,
};
