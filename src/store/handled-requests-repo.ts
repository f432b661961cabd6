/**
 * Which Slack requests were already accepted, keyed by what Slack keeps the same across
 * a redelivery (a trigger_id, an event_id). Kept in the database, not in memory, so a
 * redelivery that arrives after a restart is still recognised.
 */
export interface HandledRequestsRepo {
  /**
   * Records `key` as accepted at `nowMs`; true when it had already been accepted within
   * `keepMs` before (a redelivery of something the bot acted on).
   */
  remember(key: string, nowMs: number, keepMs: number): Promise<boolean>;
  /** Forgets requests accepted before `cutoffMs`; returns how many. */
  purgeBefore(cutoffMs: number): Promise<number>;
}
