/**
 * The outbox: every Slack post is first a row here, written in the same transaction as
 * the detector state that produced it, then delivered by the relay.
 *
 * - `enqueue` is INSERT … ON CONFLICT DO NOTHING on `dedupe_key`: enqueueing the same
 *   message twice (a rerun, two overlapping runs) is a no-op. A row may carry a
 *   `sendAfterMs` (a digest prepared ahead of its local time): it is not claimed before.
 * - `claimDue` moves due rows to 'sending' with a lease in one UPDATE … RETURNING, which
 *   SQLite runs under its single write lock: two processes can never claim the same row.
 *   It takes the oldest rows of as many channels as it can (a few per channel): a batch
 *   filled by one busy channel would leave every other channel waiting on its pace.
 * - A row left in 'sending' by a crashed process is not re-claimed blindly: it may have
 *   been posted. `listSending` hands it to the relay, which looks for the message's
 *   metadata in the channel history and then calls `markSent` or `requeue`.
 */
import { randomUUID } from 'node:crypto';
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

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
  afterDedupeKey: string;
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
  /** Deletes sent and failed rows finished before `beforeMs`; the dedupe keys go with them. */
  purgeFinished(beforeMs: number): Promise<number>;
  /** This repo's default lease owner. */
  readonly owner: string;
}

/**
 * An outbox row as both backends return it; only the payload's form differs (JSON text in
 * SQLite, jsonb already parsed in Postgres), hence `P`.
 */
export interface OutboxRow<P> {
  id: number;
  dedupe_key: string;
  channel_id: string;
  brand_id: string | null;
  kind: OutboxKind;
  payload: P;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at_ms: number;
  hold_until_ms: number | null;
  send_after_ms: number | null;
  lease_owner: string | null;
  lease_until_ms: number | null;
  last_error: string | null;
  slack_ts: string | null;
  created_at_ms: number;
  sent_at_ms: number | null;
  upload_file_id: string | null;
}

/** The message a row holds, with its payload already decoded. */
export function outboxMessageFromRow(r: OutboxRow<unknown>, payload: OutboxPayload): OutboxMessage {
  return {
    id: r.id,
    dedupeKey: r.dedupe_key,
    channelId: r.channel_id,
    brandId: r.brand_id,
    kind: r.kind,
    payload,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAtMs: r.next_attempt_at_ms,
    holdUntilMs: r.hold_until_ms,
    sendAfterMs: r.send_after_ms,
    leaseOwner: r.lease_owner,
    leaseUntilMs: r.lease_until_ms,
    lastError: r.last_error,
    slackTs: r.slack_ts,
    createdAtMs: r.created_at_ms,
    sentAtMs: r.sent_at_ms,
    uploadFileId: r.upload_file_id,
  };
}

type Row = OutboxRow<string>;
const fromRow = (r: Row): OutboxMessage => outboxMessageFromRow(r, JSON.parse(r.payload) as OutboxPayload);

const DEFAULT_LEASE_MS = 60_000;
/** Errors are stored for operators, not replayed; keep rows small. */
const MAX_ERROR_CHARS = 1000;

export function createOutboxRepo(db: Db, options: { owner?: string } = {}): OutboxRepo {
  const owner = options.owner ?? `${process.pid}:${randomUUID()}`;
  const insert = db.prepare(
    `INSERT INTO outbox (dedupe_key, channel_id, brand_id, kind, payload, status, next_attempt_at_ms, hold_until_ms, send_after_ms, created_at_ms)
     VALUES (@dedupe_key, @channel_id, @brand_id, @kind, @payload, @status, @next, @hold, @send_after, @now)
     ON CONFLICT (dedupe_key) DO NOTHING`,
  );
  const idByKey = db.prepare('SELECT id FROM outbox WHERE dedupe_key = ?').pluck();
  const claim = db.prepare(
    `UPDATE outbox SET status = 'sending', lease_owner = @owner, lease_until_ms = @until, attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM (
         SELECT id, next_attempt_at_ms,
           ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY next_attempt_at_ms, id) AS place
         FROM outbox
         WHERE status = 'pending' AND next_attempt_at_ms <= @now
           AND (send_after_ms IS NULL OR send_after_ms <= @now)
       )
       WHERE place <= @per_channel
       ORDER BY next_attempt_at_ms, id LIMIT @limit
     )
     RETURNING *`,
  );
  const sent = db.prepare(
    `UPDATE outbox SET status = 'sent', slack_ts = ?, sent_at_ms = ?, lease_owner = NULL, lease_until_ms = NULL, last_error = NULL
     WHERE id = ? AND status IN ('sending', 'pending')`,
  );
  const retry = db.prepare(
    `UPDATE outbox SET status = 'pending', last_error = ?, next_attempt_at_ms = ?, lease_owner = NULL, lease_until_ms = NULL
     WHERE id = ? AND status = 'sending'`,
  );
  const failed = db.prepare(
    `UPDATE outbox SET status = 'failed', last_error = ?, lease_owner = NULL, lease_until_ms = NULL
     WHERE id = ? AND status IN ('sending', 'pending', 'held')`,
  );
  const holdRow = db.prepare(
    `UPDATE outbox SET status = 'held', hold_until_ms = ?, lease_owner = NULL, lease_until_ms = NULL,
       attempts = MAX(attempts - 1, 0)
     WHERE id = ? AND status IN ('sending', 'pending')`,
  );
  const release = db.prepare(
    `UPDATE outbox SET status = 'pending', next_attempt_at_ms = MAX(next_attempt_at_ms, hold_until_ms)
     WHERE status = 'held' AND (hold_until_ms IS NULL OR hold_until_ms <= ?)`,
  );
  const reholdRow = db.prepare(`UPDATE outbox SET hold_until_ms = ? WHERE id = ? AND status = 'held'`);
  const nextPending = db
    .prepare(
      `SELECT MIN(MAX(next_attempt_at_ms, COALESCE(send_after_ms, 0))) FROM outbox WHERE status = 'pending'`,
    )
    .pluck();
  const scheduled = db
    .prepare(`SELECT COUNT(*) FROM outbox WHERE status = 'pending' AND send_after_ms > ?`)
    .pluck();
  const sendNowRow = db.prepare(
    `UPDATE outbox SET send_after_ms = @now, next_attempt_at_ms = MIN(next_attempt_at_ms, @now)
     WHERE dedupe_key = @key AND status = 'pending' AND send_after_ms > @now`,
  );
  const merged = db.prepare(
    `UPDATE outbox SET status = 'sent', sent_at_ms = ?, slack_ts = NULL, last_error = ?, lease_owner = NULL, lease_until_ms = NULL
     WHERE id = ? AND status IN ('held', 'pending')`,
  );
  const sendingAll = db.prepare(`SELECT * FROM outbox WHERE status = 'sending' ORDER BY id`);
  const sendingExpired = db.prepare(
    `SELECT * FROM outbox WHERE status = 'sending' AND (lease_until_ms IS NULL OR lease_until_ms <= ?) ORDER BY id`,
  );
  const requeueRow = db.prepare(
    `UPDATE outbox SET status = 'pending', next_attempt_at_ms = ?, lease_owner = NULL, lease_until_ms = NULL,
       attempts = MAX(attempts - 1, 0)
     WHERE id = ? AND status = 'sending'`,
  );
  const uploadRow = db.prepare(`UPDATE outbox SET upload_file_id = ? WHERE id = ? AND status = 'sending'`);
  const digestDue = db
    .prepare(
      `SELECT 1 FROM outbox WHERE channel_id = @channel AND kind = 'digest' AND status IN ('pending', 'sending')
         AND next_attempt_at_ms <= @now AND (send_after_ms IS NULL OR send_after_ms <= @now) LIMIT 1`,
    )
    .pluck();
  const byId = db.prepare('SELECT * FROM outbox WHERE id = ?');
  const byKey = db.prepare('SELECT * FROM outbox WHERE dedupe_key = ?');
  const heldAll = db.prepare(`SELECT * FROM outbox WHERE status = 'held' ORDER BY hold_until_ms, id`);
  const heldChannel = db.prepare(
    `SELECT * FROM outbox WHERE status = 'held' AND channel_id = ? ORDER BY hold_until_ms, id`,
  );
  const countRows = db.prepare('SELECT status, COUNT(*) AS n FROM outbox GROUP BY status');
  const purge = db.prepare(
    `DELETE FROM outbox WHERE (status = 'sent' AND sent_at_ms < ?) OR (status = 'failed' AND created_at_ms < ?)`,
  );

  const claimTx = db.transaction((nowMs: number, limit: number, o: Required<ClaimOptions>) =>
    (
      claim.all({
        owner: o.owner,
        until: nowMs + o.leaseMs,
        now: nowMs,
        limit,
        per_channel: o.perChannel,
      }) as Row[]
    )
      .map(fromRow)
      .sort((a, b) => a.nextAttemptAtMs - b.nextAttemptAtMs || a.id - b.id),
  );
  const cut = (e: string) => (e.length > MAX_ERROR_CHARS ? e.slice(0, MAX_ERROR_CHARS) : e);

  return asyncRepo<OutboxRepo>(db, {
    owner,
    enqueue(m) {
      const held = m.holdUntilMs != null && m.holdUntilMs > m.nowMs;
      const sendAfter = m.sendAfterMs != null && m.sendAfterMs > m.nowMs ? m.sendAfterMs : null;
      const r = insert.run({
        dedupe_key: m.dedupeKey,
        channel_id: m.channelId,
        brand_id: m.brandId ?? null,
        kind: m.kind,
        payload: JSON.stringify(m.payload),
        status: held ? 'held' : 'pending',
        next: sendAfter ?? m.nowMs,
        hold: held ? m.holdUntilMs : null,
        send_after: sendAfter,
        now: m.nowMs,
      });
      if (r.changes === 1) return { id: Number(r.lastInsertRowid), created: true };
      return { id: idByKey.get(m.dedupeKey) as number, created: false };
    },
    claimDue(nowMs, limit, o = {}) {
      if (limit <= 0) return [];
      return claimTx.immediate(nowMs, limit, {
        owner: o.owner ?? owner,
        leaseMs: o.leaseMs ?? DEFAULT_LEASE_MS,
        perChannel: Math.max(1, o.perChannel ?? limit),
      });
    },
    markSent: (id, slackTs, nowMs) => sent.run(slackTs, nowMs, id).changes > 0,
    markRetry: (id, error, nextAtMs) => retry.run(cut(error), nextAtMs, id).changes > 0,
    markFailed: (id, error) => failed.run(cut(error), id).changes > 0,
    hold: (id, untilMs) => holdRow.run(untilMs, id).changes > 0,
    releaseHeld: (nowMs) => release.run(nowMs).changes,
    rehold: (id, untilMs) => reholdRow.run(untilMs, id).changes > 0,
    nextPendingAt: () => (nextPending.get() as number | null | undefined) ?? null,
    sendNow: (key, nowMs) => sendNowRow.run({ key, now: nowMs }).changes > 0,
    countScheduled: (nowMs) => scheduled.get(nowMs) as number,
    markMerged: (id, intoId, nowMs) => merged.run(nowMs, `merged into #${intoId}`, id).changes > 0,
    listSending: (leaseExpiredAt) =>
      ((leaseExpiredAt === undefined ? sendingAll.all() : sendingExpired.all(leaseExpiredAt)) as Row[]).map(
        fromRow,
      ),
    requeue: (id, nextAtMs) => requeueRow.run(nextAtMs, id).changes > 0,
    recordUpload: (id, fileId) => uploadRow.run(fileId, id).changes > 0,
    hasDigestDue: (channelId, nowMs) => digestDue.get({ channel: channelId, now: nowMs }) !== undefined,
    get(id) {
      const r = byId.get(id) as Row | undefined;
      return r ? fromRow(r) : null;
    },
    getByDedupeKey(key) {
      const r = byKey.get(key) as Row | undefined;
      return r ? fromRow(r) : null;
    },
    listHeld: (channelId) =>
      ((channelId === undefined ? heldAll.all() : heldChannel.all(channelId)) as Row[]).map(fromRow),
    counts() {
      const out = Object.fromEntries(outboxStatuses.map((s) => [s, 0])) as Record<OutboxStatus, number>;
      for (const r of countRows.all() as { status: OutboxStatus; n: number }[]) out[r.status] = r.n;
      return out;
    },
    purgeFinished: (beforeMs) => purge.run(beforeMs, beforeMs).changes,
  });
}
