import type { Migration } from '../migrate.js';

/**
 * Per-brand state of the "a model stopped citing you" rule (src/alerts/detect-model-citations.ts):
 * cited pages per AI model per day over the last days, which models are reported stopped
 * (and their episode), and which models cited each page. One row per brand, JSON, written
 * in the same transaction as the alerts it produced.
 */
export const modelCitationState: Migration = {
  version: 12,
  name: 'model-citation-state',
  sqlite: `
    CREATE TABLE model_citation_state (
      brand_id TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      updated_at_ms INTEGER NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE model_citation_state (
      brand_id text PRIMARY KEY,
      state jsonb NOT NULL,
      updated_at_ms bigint NOT NULL
    );
  `,
};
