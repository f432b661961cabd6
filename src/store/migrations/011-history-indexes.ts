import type { Migration } from '../migrate.js';

/**
 * Indexes for what the App Home and `status` ask every time they are opened, so they stay
 * quick however many rows the retention keeps (issue: 87–200 ms at 100,000 outbox rows):
 * - each brand's newest alert messages and digest chart (alert-history.ts: by brand and
 *   kind, newest first), read through the index instead of scanning every row of the
 *   outbox;
 * - who acknowledged which alert since a day (the audit log, by action and time);
 * - each job's newest run and its failures in a row (job_runs by job, in id order);
 * - the snoozes still running (and those over, which the housekeeping deletes).
 * IF NOT EXISTS: a file rolled back to an older version by hand keeps the indexes it had.
 */
export const historyIndexes: Migration = {
  version: 11,
  name: 'history-indexes',
  sqlite: `
    CREATE INDEX IF NOT EXISTS outbox_brand_history ON outbox (brand_id, kind, created_at_ms, id);
    CREATE INDEX IF NOT EXISTS audit_log_action_at ON audit_log (action, at_ms);
    CREATE INDEX IF NOT EXISTS job_runs_job_id ON job_runs (job, id);
    CREATE INDEX IF NOT EXISTS snoozes_until ON snoozes (until_ms);
  `,
  postgres: `
    CREATE INDEX IF NOT EXISTS outbox_brand_history ON outbox (brand_id, kind, created_at_ms, id);
    CREATE INDEX IF NOT EXISTS audit_log_action_at ON audit_log (action, at_ms);
    CREATE INDEX IF NOT EXISTS job_runs_job_id ON job_runs (job, id);
    CREATE INDEX IF NOT EXISTS snoozes_until ON snoozes (until_ms);
  `,
};
