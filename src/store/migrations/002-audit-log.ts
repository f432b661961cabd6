import type { Migration } from '../migrate.js';

/** Who changed what, when, and how it went: every write from Slack. */
export const auditLog: Migration = {
  version: 2,
  name: 'audit-log',
  sql: `
    CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at_ms INTEGER NOT NULL,
      user_id TEXT NOT NULL,
      channel_id TEXT,
      brand_id TEXT,
      action TEXT NOT NULL,
      detail TEXT NOT NULL DEFAULT '{}',
      result TEXT NOT NULL
    );
    CREATE INDEX audit_log_at ON audit_log (at_ms);
  `,
};
