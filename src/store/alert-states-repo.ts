/**
 * Who owns each posted alert message and what became of it (migration 16). A row is written
 * when the relay posts an alert message, and changed only by single conditional statements,
 * so two replicas handling clicks on one alert at once leave one consistent state: the
 * second resolve of an alert changes nothing and says so (null).
 *
 * Kept as long as the alert history: `purgeBefore` is for the store's housekeeping.
 */

/** Which alerts a list shows. */
export type AlertStateFilter = 'open' | 'resolved' | 'all';

export interface AlertState {
  id: number;
  outboxId: number;
  channelId: string;
  messageTs: string;
  brandId: string;
  /** The message's header as posted (escaped for Slack). */
  headline: string;
  /** Alert kinds in the message (`citation_lost`, …). */
  kinds: string[];
  alertCount: number;
  postedAtMs: number;
  /** The message's Slack permalink, once asked for. */
  permalink: string | null;
  /** The earlier alert about the same subject in this channel, when this one recurs. */
  previousId: number | null;
  assigneeId: string | null;
  /** Who assigned it; null when it was carried over from the earlier occurrence. */
  assignedBy: string | null;
  assignedAtMs: number | null;
  /** The first person who acted on it (Acknowledge, Assign or Resolve), and when. */
  acknowledgedBy: string | null;
  acknowledgedAtMs: number | null;
  resolvedBy: string | null;
  resolvedAtMs: number | null;
  /** The resolver's note as typed (user text: escape it to show it). */
  resolveNote: string | null;
  /** The copy sent to the assignee, updated with the channel message. */
  dmChannelId: string | null;
  dmTs: string | null;
  /** Goes up with every change. */
  version: number;
}

export interface PostedAlert {
  outboxId: number;
  channelId: string;
  messageTs: string;
  brandId: string;
  headline: string;
  kinds: readonly string[];
  alertCount: number;
  postedAtMs: number;
  /** What the alerts are about (`citation_lost:<url>`), for recurrence. */
  subjects: readonly string[];
}

export interface AlertStatesRepo {
  /**
   * Records a posted alert message; the same outbox row again returns the row already
   * written (`created` false). A new row links to the newest earlier alert of the channel
   * and brand that shares a subject with it, and takes over that alert's assignee.
   */
  recordPosted(alert: PostedAlert): Promise<{ state: AlertState; created: boolean }>;
  get(id: number): Promise<AlertState | null>;
  findByMessage(channelId: string, messageTs: string): Promise<AlertState | null>;
  /** Assigns an open alert; null when it is resolved or already assigned to that person. */
  assign(
    id: number,
    change: { assigneeId: string; byUserId: string; atMs: number },
  ): Promise<AlertState | null>;
  /** Resolves an open alert with a note; null when it is already resolved. */
  resolve(id: number, change: { byUserId: string; note: string; atMs: number }): Promise<AlertState | null>;
  /** Opens a resolved alert again (its owner stays); null when it is open. */
  reopen(id: number, change: { byUserId: string; atMs: number }): Promise<AlertState | null>;
  /** Records the first acknowledgement; null when it already had one. */
  acknowledge(id: number, change: { byUserId: string; atMs: number }): Promise<AlertState | null>;
  setPermalink(id: number, permalink: string): Promise<void>;
  setDirectMessage(id: number, channelId: string, ts: string): Promise<void>;
  /** A brand's alerts posted since `sinceMs`, newest first, one page of them and the total. */
  list(query: {
    brandId: string;
    filter: AlertStateFilter;
    sinceMs: number;
    offset: number;
    limit: number;
  }): Promise<{ states: AlertState[]; total: number }>;
  /** Alerts posted in [sinceMs, untilMs), oldest first; of one channel when given. */
  listOpened(sinceMs: number, untilMs: number, channelId?: string): Promise<AlertState[]>;
  /** Alerts resolved in [sinceMs, untilMs), oldest first; of one channel when given. */
  listResolved(sinceMs: number, untilMs: number, channelId?: string): Promise<AlertState[]>;
  /** Alerts still open of `brandIds` (every brand when omitted), oldest first; of one channel when given. */
  listOpen(brandIds?: readonly string[], channelId?: string): Promise<AlertState[]>;
  /**
   * Forgets up to `limit` alerts whose last news (resolution, else posting) is before
   * `cutoffMs`, with their subjects; returns how many. An older alert that recurs later
   * starts a new chain.
   */
  purgeBefore(cutoffMs: number, limit?: number): Promise<number>;
}
