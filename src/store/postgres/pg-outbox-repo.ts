/**
 * OutboxRepo on Postgres (outbox-repo.ts has the contract). Every statement runs on
 * `pgExecutor(pool)`, so an enqueue inside `pgTransaction` commits or rolls back with the
 * detector state written beside it.
 *
 * Claims are one statement. The candidates are the oldest due rows of each channel (at
 * most `perChannel` of each); of those, the oldest `limit` that no other transaction
 * holds are locked with FOR UPDATE SKIP LOCKED and moved to 'sending'. Two replicas
 * claiming at once therefore never get the same row and never wait for each other: the
 * second skips the first one's rows and takes the next candidates, which are other
 * channels' oldest rows, not the same channel's next row. A row another replica moved to
 * 'sending' after this statement's snapshot is re-checked on locking and left out.
 */
import { randomUUID } from 'node:crypto';
import {
  type ClaimOptions,
  type OutboxMessage,
  type OutboxPayload,
  type OutboxRepo,
  type OutboxRow,
  type OutboxStatus,
  outboxMessageFromRow,
  outboxStatuses,
} from '../outbox-repo.js';
import type { PgPool } from './create-pool.js';
import { pgJson, pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

type Row = OutboxRow<OutboxPayload>;
const fromRow = (r: Row): OutboxMessage => outboxMessageFromRow(r, r.payload);

const DEFAULT_LEASE_MS = 60_000;
/** Errors are stored for operators, not replayed; keep rows small. */
const MAX_ERROR_CHARS = 1000;
/** Enqueue attempts when the conflicting row vanished before it could be read (a purge). */
const ENQUEUE_ATTEMPTS = 3;

const DUE = `status = 'pending' AND next_attempt_at_ms <= $1 AND (send_after_ms IS NULL OR send_after_ms <= $1)`;

const CLAIM = `
  WITH candidates AS (
    SELECT id FROM (
      SELECT id, ROW_NUMBER() OVER (PARTITION BY channel_id ORDER BY next_attempt_at_ms, id) AS place
      FROM outbox WHERE ${DUE}
    ) AS ranked
    WHERE place <= $2
  ), locked AS (
    SELECT id FROM outbox
    WHERE id IN (SELECT id FROM candidates) AND ${DUE}
    ORDER BY next_attempt_at_ms, id
    LIMIT $3
    FOR UPDATE SKIP LOCKED
  )
  UPDATE outbox SET status = 'sending', lease_owner = $4, lease_until_ms = $5, attempts = outbox.attempts + 1
  FROM locked WHERE outbox.id = locked.id
  RETURNING outbox.*`;

export function createPgOutboxRepo(pool: PgPool, options: { owner?: string } = {}): OutboxRepo {
  const owner = options.owner ?? `${process.pid}:${randomUUID()}`;
  const run = async (sql: string, params: unknown[]): Promise<number> =>
    (await pgExecutor(pool).query(sql, params)).rowCount ?? 0;
  const rows = async (sql: string, params: unknown[] = []): Promise<OutboxMessage[]> =>
    (await pgExecutor(pool).query<Row>(sql, params)).rows.map(fromRow);
  const one = async (sql: string, params: unknown[]): Promise<OutboxMessage | null> =>
    (await rows(sql, params))[0] ?? null;
  const cut = (e: string) => pgText(e.length > MAX_ERROR_CHARS ? e.slice(0, MAX_ERROR_CHARS) : e);

  return {
    owner,
    async enqueue(m) {
      const held = m.holdUntilMs != null && m.holdUntilMs > m.nowMs;
      const sendAfter = m.sendAfterMs != null && m.sendAfterMs > m.nowMs ? m.sendAfterMs : null;
      const key = pgText(m.dedupeKey);
      for (let attempt = 1; ; attempt += 1) {
        // ON CONFLICT waits for a concurrent insert of the same key to commit, so the
        // SELECT after it (a new snapshot) sees that row.
        const inserted = await pgExecutor(pool).query<{ id: number }>(
          `INSERT INTO outbox (dedupe_key, channel_id, brand_id, kind, payload, status, next_attempt_at_ms, hold_until_ms, send_after_ms, created_at_ms)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)
           ON CONFLICT (dedupe_key) DO NOTHING
           RETURNING id`,
          [
            key,
            pgText(m.channelId),
            pgText(m.brandId ?? null),
            m.kind,
            pgJson(m.payload),
            held ? 'held' : 'pending',
            sendAfter ?? m.nowMs,
            held ? m.holdUntilMs : null,
            sendAfter,
            m.nowMs,
          ],
        );
        if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
        const existing = await pgExecutor(pool).query<{ id: number }>(
          'SELECT id FROM outbox WHERE dedupe_key = $1',
          [key],
        );
        if (existing.rows[0]) return { id: existing.rows[0].id, created: false };
        if (attempt >= ENQUEUE_ATTEMPTS) throw new Error(`outbox enqueue of ${key} kept conflicting`);
      }
    },
    async claimDue(nowMs, limit, o: ClaimOptions = {}) {
      if (limit <= 0) return [];
      const claimed = await rows(CLAIM, [
        nowMs,
        Math.max(1, o.perChannel ?? limit),
        limit,
        pgText(o.owner ?? owner),
        nowMs + (o.leaseMs ?? DEFAULT_LEASE_MS),
      ]);
      // RETURNING comes in no particular order.
      return claimed.sort((a, b) => a.nextAttemptAtMs - b.nextAttemptAtMs || a.id - b.id);
    },
    markSent: async (id, slackTs, nowMs) =>
      (await run(
        `UPDATE outbox SET status = 'sent', slack_ts = $1, sent_at_ms = $2, lease_owner = NULL, lease_until_ms = NULL, last_error = NULL
         WHERE id = $3 AND status IN ('sending', 'pending')`,
        [pgText(slackTs), nowMs, id],
      )) > 0,
    markRetry: async (id, error, nextAtMs) =>
      (await run(
        `UPDATE outbox SET status = 'pending', last_error = $1, next_attempt_at_ms = $2, lease_owner = NULL, lease_until_ms = NULL
         WHERE id = $3 AND status = 'sending'`,
        [cut(error), nextAtMs, id],
      )) > 0,
    markFailed: async (id, error) =>
      (await run(
        `UPDATE outbox SET status = 'failed', last_error = $1, lease_owner = NULL, lease_until_ms = NULL
         WHERE id = $2 AND status IN ('sending', 'pending', 'held')`,
        [cut(error), id],
      )) > 0,
    hold: async (id, untilMs) =>
      (await run(
        `UPDATE outbox SET status = 'held', hold_until_ms = $1, lease_owner = NULL, lease_until_ms = NULL,
           attempts = GREATEST(attempts - 1, 0)
         WHERE id = $2 AND status IN ('sending', 'pending')`,
        [untilMs, id],
      )) > 0,
    releaseHeld: (nowMs) =>
      run(
        `UPDATE outbox SET status = 'pending', next_attempt_at_ms = GREATEST(next_attempt_at_ms, hold_until_ms)
         WHERE status = 'held' AND (hold_until_ms IS NULL OR hold_until_ms <= $1)`,
        [nowMs],
      ),
    rehold: async (id, untilMs) =>
      (await run(`UPDATE outbox SET hold_until_ms = $1 WHERE id = $2 AND status = 'held'`, [untilMs, id])) >
      0,
    async nextPendingAt() {
      const { rows: r } = await pgExecutor(pool).query<{ at: number | null }>(
        `SELECT MIN(GREATEST(next_attempt_at_ms, COALESCE(send_after_ms, 0))) AS at FROM outbox WHERE status = 'pending'`,
      );
      return r[0]?.at ?? null;
    },
    sendNow: async (key, nowMs) =>
      (await run(
        `UPDATE outbox SET send_after_ms = $1, next_attempt_at_ms = LEAST(next_attempt_at_ms, $1)
         WHERE dedupe_key = $2 AND status = 'pending' AND send_after_ms > $1`,
        [nowMs, pgText(key)],
      )) > 0,
    async countScheduled(nowMs) {
      const { rows: r } = await pgExecutor(pool).query<{ n: number }>(
        `SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending' AND send_after_ms > $1`,
        [nowMs],
      );
      return r[0]?.n ?? 0;
    },
    markMerged: async (id, intoId, nowMs) =>
      (await run(
        `UPDATE outbox SET status = 'sent', sent_at_ms = $1, slack_ts = NULL, last_error = $2, lease_owner = NULL, lease_until_ms = NULL
         WHERE id = $3 AND status IN ('held', 'pending')`,
        [nowMs, `merged into #${intoId}`, id],
      )) > 0,
    listSending: (leaseExpiredAt) =>
      leaseExpiredAt === undefined
        ? rows(`SELECT * FROM outbox WHERE status = 'sending' ORDER BY id`)
        : rows(
            `SELECT * FROM outbox WHERE status = 'sending' AND (lease_until_ms IS NULL OR lease_until_ms <= $1) ORDER BY id`,
            [leaseExpiredAt],
          ),
    requeue: async (id, nextAtMs) =>
      (await run(
        `UPDATE outbox SET status = 'pending', next_attempt_at_ms = $1, lease_owner = NULL, lease_until_ms = NULL,
           attempts = GREATEST(attempts - 1, 0)
         WHERE id = $2 AND status = 'sending'`,
        [nextAtMs, id],
      )) > 0,
    recordUpload: async (id, fileId) =>
      (await run(`UPDATE outbox SET upload_file_id = $1 WHERE id = $2 AND status = 'sending'`, [
        pgText(fileId),
        id,
      ])) > 0,
    async hasDigestDue(channelId, nowMs) {
      const { rowCount } = await pgExecutor(pool).query(
        `SELECT 1 FROM outbox WHERE channel_id = $1 AND kind = 'digest' AND status IN ('pending', 'sending')
           AND next_attempt_at_ms <= $2 AND (send_after_ms IS NULL OR send_after_ms <= $2) LIMIT 1`,
        [pgText(channelId), nowMs],
      );
      return (rowCount ?? 0) > 0;
    },
    get: (id) => one('SELECT * FROM outbox WHERE id = $1', [id]),
    getByDedupeKey: (key) => one('SELECT * FROM outbox WHERE dedupe_key = $1', [pgText(key)]),
    listHeld: (channelId) =>
      channelId === undefined
        ? rows(`SELECT * FROM outbox WHERE status = 'held' ORDER BY hold_until_ms NULLS FIRST, id`)
        : rows(
            `SELECT * FROM outbox WHERE status = 'held' AND channel_id = $1 ORDER BY hold_until_ms NULLS FIRST, id`,
            [pgText(channelId)],
          ),
    async counts() {
      const out = Object.fromEntries(outboxStatuses.map((s) => [s, 0])) as Record<OutboxStatus, number>;
      const { rows: r } = await pgExecutor(pool).query<{ status: OutboxStatus; n: number }>(
        'SELECT status, COUNT(*) AS n FROM outbox GROUP BY status',
      );
      for (const { status, n } of r) out[status] = n;
      return out;
    },
    purgeFinished: (beforeMs) =>
      run(
        `DELETE FROM outbox WHERE (status = 'sent' AND sent_at_ms < $1) OR (status = 'failed' AND created_at_ms < $1)`,
        [beforeMs],
      ),
  };
}
