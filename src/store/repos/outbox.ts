/**
 * OutboxRepo (outbox-repo.ts has the contract), for both backends. Every statement runs
 * where the caller is (repo-context.ts), so an enqueue inside a transaction commits or
 * rolls back with the detector state written beside it.
 *
 * A claim is one UPDATE … RETURNING. The candidates are the oldest due rows of each
 * channel (at most `perChannel` of each); of those, the oldest `limit` are moved to
 * 'sending'. On SQLite the statement runs under the database's one write lock, so two
 * processes never claim the same row. On Postgres the rows are picked with FOR UPDATE SKIP
 * LOCKED: replicas claiming at once never get the same row and never wait for each other
 * (the second skips the first one's rows and takes other channels' oldest ones), and a row
 * another replica moved to 'sending' after this statement's snapshot is re-checked on
 * locking and left out.
 */
import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Database, Row } from '../database.js';
import {
  type ClaimOptions,
  type NewOutboxMessage,
  type OutboxKind,
  type OutboxMessage,
  type OutboxPayload,
  type OutboxRepo,
  type OutboxStatus,
  outboxStatuses,
} from '../outbox-repo.js';
import { count, type RepoContext } from '../repo-context.js';

const fromRow = (r: Row<'outbox'>): OutboxMessage => ({
  id: r.id,
  dedupeKey: r.dedupe_key,
  channelId: r.channel_id,
  brandId: r.brand_id,
  kind: r.kind,
  payload: JSON.parse(r.payload) as OutboxPayload,
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
});

const DEFAULT_LEASE_MS = 60_000;
/** Errors are stored for operators, not replayed; keep rows small. */
const MAX_ERROR_CHARS = 1000;
/** Enqueue attempts when the conflicting row vanished before it could be read (a purge). */
const ENQUEUE_ATTEMPTS = 3;
/** Rows of one enqueueMany statement: 11 values each, well inside either backend's parameter limit. */
const ENQUEUE_MANY_CHUNK = 200;

type Eb = ExpressionBuilder<Database, 'outbox'>;

/** A pending row whose time has come, retries and "not before" alike. */
const due = (nowMs: number) => (eb: Eb) =>
  eb.and([
    eb('status', '=', 'pending'),
    eb('next_attempt_at_ms', '<=', nowMs),
    eb.or([eb('send_after_ms', 'is', null), eb('send_after_ms', '<=', nowMs)]),
  ]);

type NewRow = Insertable<Database['outbox']> & {
  brand_id: string | null;
  status: 'pending' | 'held';
  hold_until_ms: number | null;
  send_after_ms: number | null;
};

/** The row `enqueue` writes for `m`: held while its hold lasts, due when its "not before" comes. */
function newRow(m: NewOutboxMessage, payload: string): NewRow {
  const held = m.holdUntilMs != null && m.holdUntilMs > m.nowMs;
  const sendAfter = m.sendAfterMs != null && m.sendAfterMs > m.nowMs ? m.sendAfterMs : null;
  return {
    dedupe_key: m.dedupeKey,
    channel_id: m.channelId,
    brand_id: m.brandId ?? null,
    kind: m.kind,
    payload,
    status: held ? 'held' : 'pending',
    next_attempt_at_ms: sendAfter ?? m.nowMs,
    hold_until_ms: held ? (m.holdUntilMs ?? null) : null,
    send_after_ms: sendAfter,
    created_at_ms: m.nowMs,
  };
}

const byDueTime = (a: OutboxMessage, b: OutboxMessage) =>
  a.nextAttemptAtMs - b.nextAttemptAtMs || a.id - b.id;

// Long by design: one short method per query of the outbox table over shared helpers; each reads alone.
export function createOutboxRepo(ctx: RepoContext, options: { owner?: string } = {}): OutboxRepo {
  const owner = options.owner ?? `${process.pid}:${process.getBuiltinModule('node:crypto').randomUUID()}`;
  const rows = () => ctx.db().selectFrom('outbox').selectAll();
  const update = () => ctx.db().updateTable('outbox');
  const changed = async (q: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    count((await q.executeTakeFirst()).numUpdatedRows) > 0;
  const rowOf = (m: NewOutboxMessage) => newRow(m, ctx.sql.json(m.payload));
  const cut = (e: string) => (e.length > MAX_ERROR_CHARS ? e.slice(0, MAX_ERROR_CHARS) : e);
  const oneBy = async (column: 'id' | 'dedupe_key', value: number | string) => {
    const r = await rows().where(column, '=', value).executeTakeFirst();
    return r ? fromRow(r) : null;
  };

  async function claimDue(nowMs: number, limit: number, o: ClaimOptions = {}): Promise<OutboxMessage[]> {
    if (limit <= 0) return [];
    const db = ctx.db();
    const ranked = db
      .selectFrom('outbox')
      .select((eb) => [
        'id',
        eb.fn
          .agg<number>('row_number')
          .over((w) => w.partitionBy('channel_id').orderBy('next_attempt_at_ms').orderBy('id'))
          .as('place'),
      ])
      .where(due(nowMs));
    const candidates = db
      .selectFrom(ranked.as('ranked'))
      .select('ranked.id')
      .where('ranked.place', '<=', Math.max(1, o.perChannel ?? limit));
    const picked = ctx.sql.lockRowsSkipLocked(
      db
        .selectFrom('outbox')
        .select('id')
        .where('id', 'in', candidates)
        .where(due(nowMs))
        .orderBy('next_attempt_at_ms')
        .orderBy('id')
        .limit(limit),
    );
    const claimed = await db
      .updateTable('outbox')
      .set((eb) => ({
        status: 'sending',
        lease_owner: o.owner ?? owner,
        lease_until_ms: nowMs + (o.leaseMs ?? DEFAULT_LEASE_MS),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', picked)
      .returningAll()
      .execute();
    // RETURNING comes in no particular order.
    return claimed.map(fromRow).sort(byDueTime);
  }

  // Jobs enqueue a message per brand and channel: prepared.
  const insert = ctx.prepare(
    (
      db,
      dedupeKey: string,
      channelId: string,
      brandId: string | null,
      kind: OutboxKind,
      payload: string,
      status: 'pending' | 'held',
      nextAtMs: number,
      holdUntilMs: number | null,
      sendAfterMs: number | null,
      nowMs: number,
    ) =>
      db
        .insertInto('outbox')
        .values({
          dedupe_key: dedupeKey,
          channel_id: channelId,
          brand_id: brandId,
          kind,
          payload,
          status,
          next_attempt_at_ms: nextAtMs,
          hold_until_ms: holdUntilMs,
          send_after_ms: sendAfterMs,
          created_at_ms: nowMs,
        })
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .returning('id'),
  );
  const idOf = ctx.prepare((db, dedupeKey: string) =>
    db.selectFrom('outbox').select('id').where('dedupe_key', '=', dedupeKey),
  );

  async function enqueue(m: NewOutboxMessage) {
    const r = rowOf(m);
    for (let attempt = 1; ; attempt += 1) {
      // On Postgres the conflict waits for a concurrent insert of the same key to commit,
      // so the read after it (a new snapshot) sees that row.
      const inserted = (
        await insert(
          r.dedupe_key,
          r.channel_id,
          r.brand_id,
          r.kind,
          r.payload,
          r.status,
          r.next_attempt_at_ms,
          r.hold_until_ms,
          r.send_after_ms,
          r.created_at_ms,
        )
      ).rows[0];
      if (inserted) return { id: inserted.id, created: true };
      const existing = (await idOf(m.dedupeKey)).rows[0];
      if (existing) return { id: existing.id, created: false };
      if (attempt >= ENQUEUE_ATTEMPTS) throw new Error(`outbox enqueue of ${m.dedupeKey} kept conflicting`);
    }
  }

  async function enqueueMany(messages: readonly NewOutboxMessage[]): Promise<number> {
    let created = 0;
    for (let i = 0; i < messages.length; i += ENQUEUE_MANY_CHUNK) {
      const rows = messages.slice(i, i + ENQUEUE_MANY_CHUNK).map(rowOf);
      const inserted = await ctx
        .db()
        .insertInto('outbox')
        .values(rows)
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .returning('id')
        .execute();
      created += inserted.length;
    }
    return created;
  }

  const released = { lease_owner: null, lease_until_ms: null } as const;

  return {
    owner,
    enqueue,
    enqueueMany,
    claimDue,
    markSent: (id, slackTs, nowMs) =>
      changed(
        update()
          .set({ status: 'sent', slack_ts: slackTs, sent_at_ms: nowMs, last_error: null, ...released })
          .where('id', '=', id)
          .where('status', 'in', ['sending', 'pending']),
      ),
    markRetry: (id, error, nextAtMs) =>
      changed(
        update()
          .set({ status: 'pending', last_error: cut(error), next_attempt_at_ms: nextAtMs, ...released })
          .where('id', '=', id)
          .where('status', '=', 'sending'),
      ),
    markFailed: (id, error) =>
      changed(
        update()
          .set({ status: 'failed', last_error: cut(error), ...released })
          .where('id', '=', id)
          .where('status', 'in', ['sending', 'pending', 'held']),
      ),
    hold: (id, untilMs) =>
      changed(
        update()
          .set((eb) => ({
            status: 'held',
            hold_until_ms: untilMs,
            ...released,
            // The claim that led here was no attempt at posting.
            attempts: ctx.sql.greatest(eb('attempts', '-', 1), eb.lit(0)),
          }))
          .where('id', '=', id)
          .where('status', 'in', ['sending', 'pending']),
      ),
    releaseHeld: async (nowMs) =>
      count(
        (
          await update()
            .set((eb) => ({
              status: 'pending',
              next_attempt_at_ms: ctx.sql.greatest(
                eb.ref('next_attempt_at_ms'),
                eb.fn.coalesce('hold_until_ms', 'next_attempt_at_ms'),
              ),
            }))
            .where('status', '=', 'held')
            .where((eb) => eb.or([eb('hold_until_ms', 'is', null), eb('hold_until_ms', '<=', nowMs)]))
            .executeTakeFirst()
        ).numUpdatedRows,
      ),
    rehold: (id, untilMs) =>
      changed(update().set({ hold_until_ms: untilMs }).where('id', '=', id).where('status', '=', 'held')),
    async nextPendingAt() {
      const r = await ctx
        .db()
        .selectFrom('outbox')
        .select((eb) =>
          eb.fn
            .min(ctx.sql.greatest(eb.ref('next_attempt_at_ms'), eb.fn.coalesce('send_after_ms', eb.lit(0))))
            .as('at'),
        )
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r?.at == null ? null : Number(r.at);
    },
    sendNow: (key, nowMs) =>
      changed(
        update()
          .set((eb) => ({
            send_after_ms: nowMs,
            next_attempt_at_ms: ctx.sql.least(eb.ref('next_attempt_at_ms'), eb.val(nowMs)),
          }))
          .where('dedupe_key', '=', key)
          .where('status', '=', 'pending')
          .where('send_after_ms', '>', nowMs),
      ),
    async countScheduled(nowMs) {
      const r = await ctx
        .db()
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'pending')
        .where('send_after_ms', '>', nowMs)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    markMerged: (id, intoId, nowMs) =>
      changed(
        update()
          .set({
            status: 'sent',
            sent_at_ms: nowMs,
            slack_ts: null,
            last_error: `merged into #${intoId}`,
            ...released,
          })
          .where('id', '=', id)
          .where('status', 'in', ['held', 'pending']),
      ),
    async listSending(leaseExpiredAt) {
      let q = rows().where('status', '=', 'sending');
      if (leaseExpiredAt !== undefined) {
        q = q.where((eb) =>
          eb.or([eb('lease_until_ms', 'is', null), eb('lease_until_ms', '<=', leaseExpiredAt)]),
        );
      }
      return (await q.orderBy('id').execute()).map(fromRow);
    },
    requeue: (id, nextAtMs) =>
      changed(
        update()
          .set((eb) => ({
            status: 'pending',
            next_attempt_at_ms: nextAtMs,
            ...released,
            // It was never posted: the claim does not count as an attempt.
            attempts: ctx.sql.greatest(eb('attempts', '-', 1), eb.lit(0)),
          }))
          .where('id', '=', id)
          .where('status', '=', 'sending'),
      ),
    recordUpload: (id, fileId) =>
      changed(update().set({ upload_file_id: fileId }).where('id', '=', id).where('status', '=', 'sending')),
    async hasDigestDue(channelId, nowMs) {
      const r = await ctx
        .db()
        .selectFrom('outbox')
        .select('id')
        .where('channel_id', '=', channelId)
        .where('kind', '=', 'digest')
        .where('status', 'in', ['pending', 'sending'])
        .where('next_attempt_at_ms', '<=', nowMs)
        .where((eb) => eb.or([eb('send_after_ms', 'is', null), eb('send_after_ms', '<=', nowMs)]))
        .limit(1)
        .executeTakeFirst();
      return r !== undefined;
    },
    get: (id) => oneBy('id', id),
    getByDedupeKey: (key) => oneBy('dedupe_key', key),
    async listHeld(channelId) {
      let q = rows().where('status', '=', 'held');
      if (channelId !== undefined) q = q.where('channel_id', '=', channelId);
      return (
        await q
          .orderBy('hold_until_ms', (o) => o.asc().nullsFirst())
          .orderBy('id')
          .execute()
      ).map(fromRow);
    },
    async counts() {
      const out = Object.fromEntries(outboxStatuses.map((s) => [s, 0])) as Record<OutboxStatus, number>;
      const r = await ctx
        .db()
        .selectFrom('outbox')
        .select((eb) => ['status', eb.fn.countAll().as('n')])
        .groupBy('status')
        .execute();
      for (const { status, n } of r) out[status] = Number(n);
      return out;
    },
    async purgeFinished(beforeMs, limit) {
      const finished = (eb: Eb) =>
        eb.or([
          eb.and([eb('status', '=', 'sent'), eb('sent_at_ms', '<', beforeMs)]),
          eb.and([eb('status', '=', 'failed'), eb('created_at_ms', '<', beforeMs)]),
        ]);
      const db = ctx.db();
      const q =
        limit === undefined
          ? db.deleteFrom('outbox').where(finished)
          : db
              .deleteFrom('outbox')
              .where(
                'id',
                'in',
                ctx.sql.lockRowsSkipLocked(
                  db.selectFrom('outbox').select('id').where(finished).orderBy('id').limit(limit),
                ),
              );
      return count((await q.executeTakeFirst()).numDeletedRows);
    },
  };
}
