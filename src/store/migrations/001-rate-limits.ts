import type { Migration } from '../migrate.js';

/**
 * One key, one budget (docs/api.md §8): the key's token bucket, per-endpoint windows, pauses
 * after a 429 and the daily count are shared by every process that uses the key. Keys are
 * stored by a hash, never in clear. Times are epoch ms of the limiter's clock.
 */
export const rateLimits: Migration = {
  version: 1,
  name: 'rate-limits',
  sqlite: `
    -- The key's token bucket. A 429 that concerns the whole key sets paused_until_ms and
    -- empties the bucket from that moment (updated_at_ms may lie in the future).
    CREATE TABLE rate_buckets (
      key_hash TEXT PRIMARY KEY,
      tokens REAL NOT NULL,
      updated_at_ms INTEGER NOT NULL,
      paused_until_ms INTEGER
    );
    -- Pauses of one endpoint or endpoint group ('group:brand-writes') after a 429.
    CREATE TABLE rate_scope_pauses (
      key_hash TEXT NOT NULL,
      scope TEXT NOT NULL,
      paused_until_ms INTEGER NOT NULL,
      PRIMARY KEY (key_hash, scope)
    );
    -- Recent sends per endpoint scope ('key': all the key's sends): the sliding window "no
    -- more than N in any window". A send is recorded when granted and moved to the time its
    -- response came back (settled), which is no earlier than the server counted it. Rows
    -- older than one window are pruned on every send.
    CREATE TABLE rate_sends (
      key_hash TEXT NOT NULL,
      scope TEXT NOT NULL,
      sent_at_ms INTEGER NOT NULL,
      settled INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX rate_sends_scope ON rate_sends (key_hash, scope, sent_at_ms);
    CREATE TABLE rate_daily_usage (
      key_hash TEXT NOT NULL,
      day TEXT NOT NULL,              -- UTC YYYY-MM-DD
      count INTEGER NOT NULL,
      PRIMARY KEY (key_hash, day)
    );
  `,
  postgres: `
    -- A 429 that concerns the whole key sets paused_until_ms and empties the bucket from
    -- that moment (updated_at_ms may lie in the future).
    CREATE TABLE rate_buckets (
      key_hash text PRIMARY KEY,
      tokens double precision NOT NULL,
      updated_at_ms bigint NOT NULL,
      paused_until_ms bigint
    );
    -- Pauses of one endpoint or endpoint group ('group:brand-writes') after a 429.
    CREATE TABLE rate_scope_pauses (
      key_hash text NOT NULL,
      scope text NOT NULL,
      paused_until_ms bigint NOT NULL,
      PRIMARY KEY (key_hash, scope)
    );
    -- Recent sends per endpoint scope ('key': all the key's sends). A send is recorded when
    -- granted and moved to the time its response came back (settled). SQLite's rowid
    -- identifies a row there; here an identity column does.
    CREATE TABLE rate_sends (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      key_hash text NOT NULL,
      scope text NOT NULL,
      sent_at_ms bigint NOT NULL,
      settled boolean NOT NULL DEFAULT false
    );
    CREATE INDEX rate_sends_scope ON rate_sends (key_hash, scope, sent_at_ms);
    CREATE TABLE rate_daily_usage (
      key_hash text NOT NULL,
      day text NOT NULL CHECK (day ~ '^\\d{4}-\\d{2}-\\d{2}$'), -- UTC YYYY-MM-DD
      count integer NOT NULL,
      PRIMARY KEY (key_hash, day)
    );
  `,
};
