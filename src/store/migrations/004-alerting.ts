import type { Migration } from '../migrate.js';

/**
 * Subscriptions, detector state, the outbox, job runs and the bot's own health flags (the
 * alerting work). All times are epoch ms from the injected clock.
 *
 * Detector state is per brand, not per subscription: two channels watching one brand see
 * the same changes, detected once and delivered to each. Per-URL citation state uses a
 * WITHOUT ROWID table keyed (brand_id, url), so loading one brand's 500 URLs is one range
 * scan of the primary key.
 */
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
};
