import type { Migration } from '../migrate.js';

/**
 * One key, one budget (DESIGN.md): the key's token bucket, per-endpoint windows, pauses
 * after a 429 and the daily count are shared by every process that uses the key. Keys are
 * stored by a hash, never in clear.
 */
export const rateLimits: Migration = {
  version: 1,
  name: 'rate-limits',
  sql: `
    CREATE TABLE rate_buckets (
      key_hash TEXT NOT NULL,
      scope TEXT NOT NULL,            -- 'key' or an endpoint key / group
      tokens REAL NOT NULL,
      updated_at_ms INTEGER NOT NULL,
      paused_until_ms INTEGER,
      PRIMARY KEY (key_hash, scope)
    );
    CREATE TABLE rate_daily_usage (
      key_hash TEXT NOT NULL,
      day TEXT NOT NULL,              -- UTC YYYY-MM-DD
      count INTEGER NOT NULL,
      PRIMARY KEY (key_hash, day)
    );
  `,
};
