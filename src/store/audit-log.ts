/**
 * Who changed what, when, and how it went: every write from Slack (table audit_log).
 * Written once for both backends in repos/audit-log.ts.
 */
export interface AuditEntry {
  atMs: number;
  userId: string;
  channelId?: string | null;
  brandId?: string | null;
  /** e.g. `markets.add`, `subscribe` */
  action: string;
  detail?: Record<string, unknown>;
  /** `ok`, `refused: …` or `error: <code>` */
  result: string;
}

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  recent(limit: number): Promise<AuditEntry[]>;
  /** Deletes at most `limit` entries written before `cutoffMs`, oldest first; returns how many. */
  purgeBefore(cutoffMs: number, limit: number): Promise<number>;
}
