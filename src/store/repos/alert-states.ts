/**
 * AlertStatesRepo (alert-states-repo.ts has the contract), for both backends. Every change
 * is one UPDATE … WHERE <the state it expects> RETURNING: of two replicas resolving one alert
 * at once, the database lets exactly one through, and the other gets no row back.
 */
import type { ExpressionBuilder } from 'kysely';
import type { AlertState, AlertStatesRepo } from '../alert-states-repo.js';
import type { Database, Row } from '../database.js';
import { count, type RepoContext } from '../repo-context.js';

const fromRow = (r: Row<'alert_states'>): AlertState => ({
  id: Number(r.id),
  outboxId: Number(r.outbox_id),
  channelId: r.channel_id,
  messageTs: r.message_ts,
  brandId: r.brand_id,
  headline: r.headline,
  kinds: r.kinds === '' ? [] : r.kinds.split(','),
  alertCount: r.alert_count,
  postedAtMs: r.posted_at_ms,
  permalink: r.permalink,
  previousId: r.previous_id === null ? null : Number(r.previous_id),
  assigneeId: r.assignee_id,
  assignedBy: r.assigned_by,
  assignedAtMs: r.assigned_at_ms,
  acknowledgedBy: r.acknowledged_by,
  acknowledgedAtMs: r.acknowledged_at_ms,
  resolvedBy: r.resolved_by,
  resolvedAtMs: r.resolved_at_ms,
  resolveNote: r.resolve_note,
  dmChannelId: r.dm_channel_id,
  dmTs: r.dm_ts,
  version: r.version,
});

type Eb = ExpressionBuilder<Database, 'alert_states'>;

/** The first acknowledgement stays: a later action only fills it in when there is none. */
const firstAck = (eb: Eb, userId: string, atMs: number) => ({
  acknowledged_by: eb.fn.coalesce('acknowledged_by', eb.val(userId)),
  acknowledged_at_ms: eb.fn.coalesce('acknowledged_at_ms', eb.val(atMs)),
});

// Long by design: one short method per query of the alert_states table; each reads alone.
export function createAlertStatesRepo(ctx: RepoContext): AlertStatesRepo {
  const byId = async (id: number) => {
    const r = await ctx.db().selectFrom('alert_states').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? fromRow(r) : null;
  };

  /** The newest earlier alert of the channel and brand about one of `subjects`. */
  const earlier = async (
    channelId: string,
    brandId: string,
    subjects: readonly string[],
    outboxId: number,
  ) => {
    if (subjects.length === 0) return null;
    const r = await ctx
      .db()
      .selectFrom('alert_subjects as s')
      .innerJoin('alert_states as a', 'a.id', 's.alert_id')
      .selectAll('a')
      .where('s.channel_id', '=', channelId)
      .where('s.brand_id', '=', brandId)
      .where('s.subject', 'in', [...subjects])
      .where('a.outbox_id', '<>', outboxId)
      .orderBy('a.posted_at_ms', 'desc')
      .orderBy('a.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? fromRow(r) : null;
  };

  const changed = (r: Row<'alert_states'> | undefined) => (r ? fromRow(r) : null);

  return {
    recordPosted(p) {
      return ctx.transaction(async () => {
        const db = ctx.db();
        const existing = await db
          .selectFrom('alert_states')
          .selectAll()
          .where('outbox_id', '=', p.outboxId)
          .executeTakeFirst();
        if (existing) return { state: fromRow(existing), created: false };
        const subjects = [...new Set(p.subjects)];
        const before = await earlier(p.channelId, p.brandId, subjects, p.outboxId);
        const inserted = await db
          .insertInto('alert_states')
          .values({
            outbox_id: p.outboxId,
            channel_id: p.channelId,
            message_ts: p.messageTs,
            brand_id: p.brandId,
            headline: p.headline,
            kinds: p.kinds.join(','),
            alert_count: p.alertCount,
            posted_at_ms: p.postedAtMs,
            permalink: null,
            previous_id: before?.id ?? null,
            assignee_id: before?.assigneeId ?? null,
            assigned_by: null,
            assigned_at_ms: before?.assigneeId ? p.postedAtMs : null,
            acknowledged_by: null,
            acknowledged_at_ms: null,
            resolved_by: null,
            resolved_at_ms: null,
            resolve_note: null,
            dm_channel_id: null,
            dm_ts: null,
          })
          // Another relay recorded the same post meanwhile: keep its row.
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!inserted) {
          const row = await db
            .selectFrom('alert_states')
            .selectAll()
            .where('outbox_id', '=', p.outboxId)
            .executeTakeFirstOrThrow();
          return { state: fromRow(row), created: false };
        }
        if (subjects.length > 0)
          await db
            .insertInto('alert_subjects')
            .values(
              subjects.map((subject) => ({
                alert_id: Number(inserted.id),
                channel_id: p.channelId,
                brand_id: p.brandId,
                subject,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute();
        return { state: fromRow(inserted), created: true };
      });
    },
    get: byId,
    async findByMessage(channelId, messageTs) {
      const r = await ctx
        .db()
        .selectFrom('alert_states')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('message_ts', '=', messageTs)
        .executeTakeFirst();
      return r ? fromRow(r) : null;
    },
    async assign(id, c) {
      const r = await ctx
        .db()
        .updateTable('alert_states')
        .set((eb) => ({
          assignee_id: c.assigneeId,
          assigned_by: c.byUserId,
          assigned_at_ms: c.atMs,
          ...firstAck(eb, c.byUserId, c.atMs),
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .where('resolved_at_ms', 'is', null)
        .where((eb) => eb.or([eb('assignee_id', 'is', null), eb('assignee_id', '<>', c.assigneeId)]))
        .returningAll()
        .executeTakeFirst();
      return changed(r);
    },
    async resolve(id, c) {
      const r = await ctx
        .db()
        .updateTable('alert_states')
        .set((eb) => ({
          resolved_by: c.byUserId,
          resolved_at_ms: c.atMs,
          resolve_note: c.note,
          ...firstAck(eb, c.byUserId, c.atMs),
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .where('resolved_at_ms', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return changed(r);
    },
    async reopen(id, _c) {
      const r = await ctx
        .db()
        .updateTable('alert_states')
        .set((eb) => ({
          resolved_by: null,
          resolved_at_ms: null,
          resolve_note: null,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .where('resolved_at_ms', 'is not', null)
        .returningAll()
        .executeTakeFirst();
      return changed(r);
    },
    async acknowledge(id, c) {
      const r = await ctx
        .db()
        .updateTable('alert_states')
        .set((eb) => ({
          acknowledged_by: c.byUserId,
          acknowledged_at_ms: c.atMs,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .where('acknowledged_at_ms', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return changed(r);
    },
    async setPermalink(id, permalink) {
      await ctx.db().updateTable('alert_states').set({ permalink }).where('id', '=', id).execute();
    },
    async setDirectMessage(id, channelId, ts) {
      await ctx
        .db()
        .updateTable('alert_states')
        .set({ dm_channel_id: channelId, dm_ts: ts })
        .where('id', '=', id)
        .execute();
    },
    async list(q) {
      let base = ctx
        .db()
        .selectFrom('alert_states')
        .where('brand_id', '=', q.brandId)
        .where('posted_at_ms', '>=', q.sinceMs);
      if (q.filter === 'open') base = base.where('resolved_at_ms', 'is', null);
      if (q.filter === 'resolved') base = base.where('resolved_at_ms', 'is not', null);
      const total = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
      const rows = await base
        .selectAll()
        .orderBy('posted_at_ms', 'desc')
        .orderBy('id', 'desc')
        .offset(q.offset)
        .limit(q.limit)
        .execute();
      return { states: rows.map(fromRow), total: Number(total?.n ?? 0) };
    },
    async listOpened(sinceMs, untilMs, channelId) {
      let q = ctx
        .db()
        .selectFrom('alert_states')
        .selectAll()
        .where('posted_at_ms', '>=', sinceMs)
        .where('posted_at_ms', '<', untilMs);
      if (channelId !== undefined) q = q.where('channel_id', '=', channelId);
      return (await q.orderBy('posted_at_ms').orderBy('id').execute()).map(fromRow);
    },
    async listResolved(sinceMs, untilMs, channelId) {
      let q = ctx
        .db()
        .selectFrom('alert_states')
        .selectAll()
        .where('resolved_at_ms', '>=', sinceMs)
        .where('resolved_at_ms', '<', untilMs);
      if (channelId !== undefined) q = q.where('channel_id', '=', channelId);
      return (await q.orderBy('resolved_at_ms').orderBy('id').execute()).map(fromRow);
    },
    async listOpen(brandIds, channelId) {
      if (brandIds !== undefined && brandIds.length === 0) return [];
      let q = ctx.db().selectFrom('alert_states').selectAll().where('resolved_at_ms', 'is', null);
      if (brandIds !== undefined) q = q.where('brand_id', 'in', [...brandIds]);
      if (channelId !== undefined) q = q.where('channel_id', '=', channelId);
      return (await q.orderBy('posted_at_ms').orderBy('id').execute()).map(fromRow);
    },
    purgeBefore(cutoffMs, limit = Number.MAX_SAFE_INTEGER) {
      return ctx.transaction(async () => {
        const db = ctx.db();
        const old = await db
          .selectFrom('alert_states')
          .select('id')
          .where((eb) => eb(eb.fn.coalesce('resolved_at_ms', 'posted_at_ms'), '<', cutoffMs))
          .orderBy('id')
          .limit(limit)
          .execute();
        if (old.length === 0) return 0;
        const ids = old.map((r) => r.id);
        await db.deleteFrom('alert_subjects').where('alert_id', 'in', ids).execute();
        const res = await db.deleteFrom('alert_states').where('id', 'in', ids).executeTakeFirst();
        return count(res.numDeletedRows);
      });
    },
  };
}
