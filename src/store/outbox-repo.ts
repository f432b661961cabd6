/**
 * The outbox: every Slack post is first a row here, written in the same transaction as
 * the detector state that produced it, then delivered by the relay.
 *
 * - `enqueue` is INSERT … ON CONFLICT DO NOTHING on `dedupe_key`: enqueueing the same
 *   message twice (a rerun, two overlapping runs) is a no-op. A row may carry a
 *   `sendAfterMs` (a digest prepared ahead of its local time): it is not claimed before.
 * - `claimDue` moves due rows to 'sending' with a lease in one UPDATE … RETURNING: two
 *   processes can never claim the same row (repos/outbox.ts says how, per backend). It
 *   takes the oldest rows of as many channels as it can (a few per channel): a batch
 *   filled by one busy channel would leave every other channel waiting on its pace.
 * - A row left in 'sending' by a crashed process is not re-claimed blindly: it may have
 *   been posted. `listSending` hands it to the relay, which looks for the message's
 *   metadata in the channel history and then calls `markSent` or `requeue`.
 */
export const outboxKinds = ['alert', 'digest', 'ops', 'chart'] as const;
export type OutboxKind = (typeof outboxKinds)[number];
export const outboxStatuses = ['pending', 'held', 'sending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

/** What the relay posts: `text` fallback, blocks, and metadata carrying the dedupe key. */
export interface OutboxPayload {
  text: string;
  blocks?: unknown[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  unfurl_links?: boolean;
  unfurl_media?: boolean;
  /** A `chart` row: what to draw at delivery time; `text` is the comment shared with it. */
  chart?: OutboxChart;
  /**
   * A message whose blocks hold a chart Slack draws (`data_visualization`, block `blockId`):
   * its data, so the relay can draw it as an image where Slack refuses the block.
   */
  nativeChart?: { blockId: string; chart: OutboxChart };
  /**
   * An alert row: what its alerts are about (`citation_lost:<url>`), kept for the alert's
   * state once posted (a later alert about the same thing links to it); never sent to Slack.
   */
  alertSubjects?: string[];
}

/** One day's figure of a chart series. */
export interface OutboxChartDay {
  /** YYYY-MM-DD */
  date: string;
  value: number;
}

/** The data a digest chart is drawn from (plain JSON: the row stores it until delivery). */
export interface OutboxChart {
  type: 'digest-brand';
  brand: string;
  /** Citations per day, oldest first; null when the service could not say. */
  citations: OutboxChartDay[] | null;
  /** AI crawler visits per day, oldest first; null when unknown. */
  crawlerVisits: OutboxChartDay[] | null;
  /** The row this chart follows (the digest): it is shared in that message's thread. */
  afterDedupeKey?: string;
}

export interface OutboxMessage {
  id: number;
  dedupeKey: string;
  channelId: string;
  brandId: string | null;
  kind: OutboxKind;
  payload: OutboxPayload;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAtMs: number;
  holdUntilMs: number | null;
  /** Not posted before this (a digest prepared ahead of its time); null: no such floor. */
  sendAfterMs: number | null;
  leaseOwner: string | null;
  leaseUntilMs: number | null;
  lastError: string | null;
  slackTs: string | null;
  createdAtMs: number;
  sentAtMs: number | null;
  /** A chart row: the Slack file id reserved for its upload (see recordUpload). */
  uploadFileId: string | null;
}

export interface NewOutboxMessage {
  dedupeKey: string;
  channelId: string;
  brandId?: string | null;
  kind: OutboxKind;
  payload: OutboxPayload;
  nowMs: number;
  /** Quiet hours or a mute: the row waits as 'held' until then. */
  holdUntilMs?: number | null;
  /** Not to be posted before this (epoch ms); absent or null: due now. */
  sendAfterMs?: number | null;
}

export interface ClaimOptions {
  /** Who holds the lease; default this repo's own owner id. */
  owner?: string;
  /** How long the claim is good for; default 60 s. */
  leaseMs?: number;
  /**
   * Rows of one channel in one claim; default no cap. The relay takes one: Slack takes
   * about one post per second per channel, so more rows of the same channel would only
   * wait in the batch while rows of other channels could go out.
   */
  perChannel?: number;
}

export interface OutboxRepo {
  /** `created: false` when a row with this dedupe key already exists (whatever its status). */
  enqueue(m: NewOutboxMessage): Promise<{ id: number; created: boolean }>;
  /**
   * Several `enqueue`s in one statement (a few hundred rows a statement): how many rows were
   * written; a row whose dedupe key exists already (or comes twice) is left out, as by `enqueue`.
   */
  enqueueMany(messages: readonly NewOutboxMessage[]): Promise<number>;
  claimDue(nowMs: number, limit: number, options?: ClaimOptions): Promise<OutboxMessage[]>;
  markSent(id: number, slackTs: string, nowMs: number): Promise<boolean>;
  /** Back to 'pending' for another attempt at `nextAtMs`. */
  markRetry(id: number, error: string, nextAtMs: number): Promise<boolean>;
  markFailed(id: number, error: string): Promise<boolean>;
  /** A claimed row that must wait after all (a mute began): 'held' until `untilMs`. */
  hold(id: number, untilMs: number): Promise<boolean>;
  /** Held rows whose hold has ended become 'pending', due at once. */
  releaseHeld(nowMs: number): Promise<number>;
  /** Moves a held row's hold to `untilMs` (unmute: the row is released at the next drain). */
  rehold(id: number, untilMs: number): Promise<boolean>;
  /** When the earliest 'pending' row is due (epoch ms), or null when none is pending. */
  nextPendingAt(): Promise<number | null>;
  /**
   * A pending row written to go out later (`sendAfterMs`) is due now instead: `run-job
   * digest` posts at once a digest the scheduler prepared ahead. False when no such row.
   */
  sendNow(dedupeKey: string, nowMs: number): Promise<boolean>;
  /** Pending rows written to go out after `nowMs` (digests prepared ahead): not waiting on a retry. */
  countScheduled(nowMs: number): Promise<number>;
  /**
   * A held row delivered inside another (grouped) row `intoId`: 'sent' without a ts of its
   * own, `last_error` naming the row that carries it.
   */
  markMerged(id: number, intoId: number, nowMs: number): Promise<boolean>;
  /** Rows in 'sending'; with `leaseExpiredAt`, only those whose lease ended by then. */
  listSending(leaseExpiredAt?: number): Promise<OutboxMessage[]>;
  /** A 'sending' row found not posted: back to 'pending' at `nextAtMs`, attempt not counted. */
  requeue(id: number, nextAtMs: number): Promise<boolean>;
  /**
   * A chart row's reserved Slack file id, written before its bytes go out, so a crashed
   * upload can be looked for by that id. Only while the row is ours ('sending').
   */
  recordUpload(id: number, fileId: string): Promise<boolean>;
  /** A digest of the channel due by `nowMs` and not yet sent (pending or being sent). */
  hasDigestDue(channelId: string, nowMs: number): Promise<boolean>;
  get(id: number): Promise<OutboxMessage | null>;
  getByDedupeKey(dedupeKey: string): Promise<OutboxMessage | null>;
  listHeld(channelId?: string): Promise<OutboxMessage[]>;
  counts(): Promise<Record<OutboxStatus, number>>;
  /**
   * Deletes sent rows posted before `beforeMs` and failed (given up) rows created before it;
   * the dedupe keys go with them. Pending, held and sending rows are never touched. With
   * `limit`, at most that many (the oldest), so a large purge goes in short statements;
   * replicas purging at once take different rows (Postgres: SKIP LOCKED).
   */
  purgeFinished(beforeMs: number, limit?: number): Promise<number>;
  /** This repo's default lease owner. */
  readonly owner: string;
}
