/**
 * Which Slack requests were already accepted, keyed by what Slack keeps the same across
 * a redelivery (a trigger_id, an event_id). Kept in the database, not in memory, so a
 * redelivery that arrives after a restart is still recognised.
 */

/**
 * How long an accepted request is remembered: Slack redelivers up to 3 times within
 * minutes, so an hour leaves a wide margin. Past it a record is of no use (the redelivery
 * filter purges it, and so does the daily housekeeping).
 */
export const REDELIVERY_WINDOW_MS = 60 * 60 * 1000;

export interface HandledRequestsRepo {
  /**
   * Records `key` as accepted at `nowMs`; true when it had already been accepted within
   * `keepMs` before (a redelivery of something the bot acted on).
   */
  remember(key: string, nowMs: number, keepMs: number): Promise<boolean>;
  /** Forgets requests accepted before `cutoffMs` (with `limit`, at most that many, oldest first); returns how many. */
  purgeBefore(cutoffMs: number, limit?: number): Promise<number>;
}
