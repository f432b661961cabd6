/**
 * How big the database is, for `status`: its size on disk and how many rows its main tables
 * hold, so an admin sees the retention at work. Read-only, whatever the backend.
 */

/** Rows kept, per kind. */
export interface TableRows {
  subscriptions: number;
  /** Outbox rows: messages posted (kept for the messages' retention) and still to post. */
  messages: number;
  /** What the last poll saw, one row per brand and source. */
  pollResults: number;
  jobRuns: number;
  auditEntries: number;
}

export interface DatabaseSize {
  /** The whole database in bytes (SQLite: its file's pages; Postgres: the database). */
  bytes: number;
  rows: TableRows;
}

export interface DatabaseSizeQueries {
  size(): Promise<DatabaseSize>;
}
