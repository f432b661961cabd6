import type { Migration } from '../migrate.js';

/**
 * Subscriptions, detector state, the outbox, job runs and the bot's own health flags (the
 * alerting work). All times are epoch ms from the injected clock.
 *
 * Detector state is per brand, not per subscription: two channels watching one brand see
 * the same changes, detected once and delivered to each. Per-URL citation state uses a
 * WITHOUT ROWID table keyed (brand_id, url), so loading one brand's 500 URLs is one range
 * scan of the primary key.
 *
 * Postgres support came after migrations 7, 8 and 9, so on Postgres this creates the tables
 * in the shape those gave them (the outbox with `send_after_ms`, the `chart` kind and
 * `upload_file_id`; citation state packed one row per brand), and 7–9 do nothing there.
 * JSON that SQLite keeps as text is jsonb there; flags SQLite keeps as 0/1 are boolean.
 */
export const alerting: Migration = {
  version: 4,
  name: 'alerting',
  sqlite: `
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
      -- Delivery stopped for good reasons Slack gave (channel_not_found, is_archived, …)
      -- until someone resubscribes or resumes.
      paused_reason TEXT,
      paused_at_ms INTEGER,
      -- /visibility mute: alerts are held (not dropped) until then.
      muted_until_ms INTEGER,
      -- Local date (subscription time zone) of the last digest enqueued; a missed digest
      -- is sent once, marked late.
      last_digest_date TEXT,
      UNIQUE (channel_id, brand_id)
    );
    CREATE INDEX subscriptions_brand ON subscriptions (brand_id);

    -- "Snooze" on an alert: that kind, for that brand, in that channel.
    CREATE TABLE snoozes (
      channel_id TEXT NOT NULL,
      brand_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      until_ms INTEGER NOT NULL,
      created_by TEXT,
      created_at_ms INTEGER NOT NULL,
      PRIMARY KEY (channel_id, brand_id, kind)
    ) WITHOUT ROWID;

    CREATE TABLE citation_state (
      brand_id TEXT NOT NULL,
      url TEXT NOT NULL,
      presence TEXT NOT NULL CHECK (presence IN ('present', 'lost', 'unknown')),
      presence_at_ms INTEGER,
      sentiment REAL,
      sentiment_at_ms INTEGER,
      competitors TEXT NOT NULL DEFAULT '[]',
      version INTEGER NOT NULL,
      last_event TEXT,
      updated_at_ms INTEGER NOT NULL,
      PRIMARY KEY (brand_id, url)
    ) WITHOUT ROWID;

    -- Last state of the level detectors per brand ('crawler', 'ai_pages'), as JSON. AI Pages
    -- state holds the threshold levels already fired in its billing period.
    CREATE TABLE detector_snapshots (
      brand_id TEXT NOT NULL,
      detector TEXT NOT NULL,
      state TEXT NOT NULL,
      updated_at_ms INTEGER NOT NULL,
      PRIMARY KEY (brand_id, detector)
    ) WITHOUT ROWID;

    -- Every Slack post goes through here. dedupe_key UNIQUE makes a repeated enqueue a
    -- no-op; the lease makes a claimed row belong to one process at a time.
    CREATE TABLE outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      dedupe_key TEXT NOT NULL UNIQUE,
      channel_id TEXT NOT NULL,
      brand_id TEXT,
      kind TEXT NOT NULL CHECK (kind IN ('alert', 'digest', 'ops')),
      payload TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'held', 'sending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at_ms INTEGER NOT NULL,
      hold_until_ms INTEGER,
      lease_owner TEXT,
      lease_until_ms INTEGER,
      last_error TEXT,
      slack_ts TEXT,
      created_at_ms INTEGER NOT NULL,
      sent_at_ms INTEGER
    );
    -- One index serves every status query (due, held, sending): those sets stay small,
    -- and each extra index would be rewritten on every status change.
    CREATE INDEX outbox_status ON outbox (status, next_attempt_at_ms);

    CREATE TABLE job_runs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      job TEXT NOT NULL,
      owner TEXT,
      started_at_ms INTEGER NOT NULL,
      finished_at_ms INTEGER,
      ok INTEGER,
      error TEXT,
      counts TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX job_runs_job ON job_runs (job, started_at_ms);

    -- Per brand, because one brand can fail while the others succeed, and the citations
    -- job sizes days_back from that brand's own last success.
    CREATE TABLE job_brand_success (
      job TEXT NOT NULL,
      brand_id TEXT NOT NULL,
      last_success_ms INTEGER NOT NULL,
      PRIMARY KEY (job, brand_id)
    ) WITHOUT ROWID;

    -- serve and run-job never run the same job at once: whoever holds the row runs it.
    CREATE TABLE job_leases (
      job TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      acquired_at_ms INTEGER NOT NULL,
      expires_at_ms INTEGER NOT NULL
    );

    -- The bot's own trouble (key_rejected, quota_spent, job_failing:<name>): reported once
    -- when raised and once when cleared.
    CREATE TABLE health_flags (
      key TEXT PRIMARY KEY,
      detail TEXT,
      raised_at_ms INTEGER NOT NULL,
      raised_reported_at_ms INTEGER,
      cleared_at_ms INTEGER,
      cleared_reported_at_ms INTEGER
    );
  `,
  postgres: `
    CREATE TABLE subscriptions (
      id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      channel_id text NOT NULL,
      brand_id text NOT NULL,
      brand_name text NOT NULL,
      alerts boolean NOT NULL DEFAULT true,
      digest boolean NOT NULL DEFAULT true,
      settings jsonb NOT NULL DEFAULT '{}',
      created_by text NOT NULL,
      created_at_ms bigint NOT NULL,
      -- Delivery stopped for good reasons Slack gave (channel_not_found, is_archived, …)
      -- until someone resubscribes or resumes.
      paused_reason text,
      paused_at_ms bigint,
      -- /visibility mute: alerts are held (not dropped) until then.
      muted_until_ms bigint,
      -- Local date (subscription time zone, YYYY-MM-DD) of the last digest enqueued; a
      -- missed digest is sent once, marked late.
      last_digest_date text,
      UNIQUE (channel_id, brand_id)
    );
    CREATE INDEX subscriptions_brand ON subscriptions (brand_id);

    -- "Snooze" on an alert: that kind, for that brand, in that channel.
    CREATE TABLE snoozes (
      channel_id text NOT NULL,
      brand_id text NOT NULL,
      kind text NOT NULL,
      until_ms bigint NOT NULL,
      created_by text,
      created_at_ms bigint NOT NULL,
      PRIMARY KEY (channel_id, brand_id, kind)
    );

    -- One row per brand: \`state\` holds the brand's URL states as the repository packs
    -- them (citation-state-packing.ts: the URLs, each distinct entry once, and per URL the
    -- number of its entry); \`url_count\` answers "how many URLs" without reading the state.
    CREATE TABLE citation_state (
      brand_id text PRIMARY KEY,
      url_count integer NOT NULL,
      state jsonb NOT NULL,
      updated_at_ms bigint NOT NULL
    );

    -- Last state of the level detectors per brand ('crawler', 'ai_pages'). AI Pages state
    -- holds the threshold levels already fired in its billing period.
    CREATE TABLE detector_snapshots (
      brand_id text NOT NULL,
      detector text NOT NULL,
      state jsonb NOT NULL,
      updated_at_ms bigint NOT NULL,
      PRIMARY KEY (brand_id, detector)
    );

    -- Every Slack post goes through here. dedupe_key UNIQUE makes a repeated enqueue a
    -- no-op; the lease makes a claimed row belong to one process at a time. send_after_ms:
    -- not before then (a digest prepared ahead of its local time), apart from
    -- next_attempt_at_ms, which retries and pacing move. upload_file_id: the Slack file
    -- reserved for a chart row's upload, written before the bytes go out.
    CREATE TABLE outbox (
      id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      dedupe_key text NOT NULL UNIQUE,
      channel_id text NOT NULL,
      brand_id text,
      kind text NOT NULL CHECK (kind IN ('alert', 'digest', 'ops', 'chart')),
      payload jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'held', 'sending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at_ms bigint NOT NULL,
      hold_until_ms bigint,
      lease_owner text,
      lease_until_ms bigint,
      last_error text,
      slack_ts text,
      created_at_ms bigint NOT NULL,
      sent_at_ms bigint,
      send_after_ms bigint,
      upload_file_id text
    );
    -- One index serves every status query (due, held, sending), as in SQLite.
    CREATE INDEX outbox_status ON outbox (status, next_attempt_at_ms);

    CREATE TABLE job_runs (
      id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      job text NOT NULL,
      owner text,
      started_at_ms bigint NOT NULL,
      finished_at_ms bigint,
      ok boolean,
      error text,
      counts jsonb NOT NULL DEFAULT '{}'
    );
    CREATE INDEX job_runs_job ON job_runs (job, started_at_ms);

    -- Per brand: one brand can fail while the others succeed, and the citations job sizes
    -- days_back from that brand's own last success.
    CREATE TABLE job_brand_success (
      job text NOT NULL,
      brand_id text NOT NULL,
      last_success_ms bigint NOT NULL,
      PRIMARY KEY (job, brand_id)
    );

    -- Processes never run the same job at once: whoever holds the row runs it.
    CREATE TABLE job_leases (
      job text PRIMARY KEY,
      owner text NOT NULL,
      acquired_at_ms bigint NOT NULL,
      expires_at_ms bigint NOT NULL
    );

    -- The bot's own trouble (key_rejected, quota_spent, job_failing:<name>): reported once
    -- when raised and once when cleared.
    CREATE TABLE health_flags (
      key text PRIMARY KEY,
      detail text,
      raised_at_ms bigint NOT NULL,
      raised_reported_at_ms bigint,
      cleared_at_ms bigint,
      cleared_reported_at_ms bigint
    );
  `,
};
