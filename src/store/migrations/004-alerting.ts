import type { Migration } from '../migrate.js';

/** Subscriptions, detector state, the outbox and job runs (the alerting work). */
export const alerting: Migration = {
  version: 4,
  name: 'alerting',
  sql: `
    CREATE TABLE subscriptions (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      channel_id TEXT NOT NULL,
      brand_id TEXT NOT NULL,
      brand_name TEXT NOT NULL,
      alerts INTEGER NOT NULL DEFAULT 1,
      digest INTEGER NOT NULL DEFAULT 1,
      settings TEXT NOT NULL DEFAULT '{}',
      created_by TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL,
      UNIQUE (channel_id, brand_id)
    );
  `,
};
