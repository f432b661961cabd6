/**
 * SnoozesRepo (snoozes-repo.ts has the contract), for both backends. Snoozing is one
 * INSERT … ON CONFLICT … DO UPDATE: replicas snoozing the same kind at once leave one row
 * with the last end written, never a duplicate-key error.
 */

import { levelKey } from '../channel-detector-state-repo.js';
import type { Row } from '../database.js';
import { count, type RepoContext } from '../repo-context.js';
import type { Snooze, SnoozesRepo } from '../snoozes-repo.js';

const fromRow = (r: Row<'snoozes'>): Snooze => ({
  channelId: r.channel_id,
  brandId: r.brand_id,
  kind: r.kind,
  untilMs: r.until_ms,
  createdBy: r.created_by,
  createdAtMs: r.created_at_ms,
});

// Long by design: one short method per query of the snoozes table; each reads alone.
export function createSnoozesRepo(ctx: RepoContext): SnoozesRepo {
  // Asked for every alert message a job writes: prepared.
  const activeFor = ctx.prepare((db, channelId: string, brandId: string, nowMs: number) =>
    db
      .selectFrom('snoozes')
      .select(['kind', 'until_ms'])
      .where('channel_id', '=', channelId)
      .where('brand_id', '=', brandId)
      .where('until_ms', '>', nowMs),
  );
  return {
    async snooze(s) {
      await ctx
        .db()
        .insertInto('snoozes')
        .values({
          channel_id: s.channelId,
          brand_id: s.brandId,
          kind: s.kind,
          until_ms: s.untilMs,
          created_by: s.createdBy,
          created_at_ms: s.createdAtMs,
        })
        .onConflict((oc) =>
          oc.columns(['channel_id', 'brand_id', 'kind']).doUpdateSet((eb) => ({
            until_ms: eb.ref('excluded.until_ms'),
            created_by: eb.ref('excluded.created_by'),
            created_at_ms: eb.ref('excluded.created_at_ms'),
          })),
        )
        .execute();
    },
    async active(channelId, brandId, nowMs) {
      const { rows } = await activeFor(channelId, brandId, nowMs);
      return new Map(rows.map((r) => [r.kind, r.until_ms]));
    },
    async activeOfBrands(brandIds, nowMs) {
      const out = new Map<string, Map<string, number>>();
      if (brandIds.length === 0) return out;
      const rows = await ctx
        .db()
        .selectFrom('snoozes')
        .select(['channel_id', 'brand_id', 'kind', 'until_ms'])
        .where('brand_id', 'in', [...brandIds])
        .where('until_ms', '>', nowMs)
        .execute();
      for (const r of rows) {
        const key = levelKey(r.channel_id, r.brand_id);
        const kinds = out.get(key) ?? new Map<string, number>();
        kinds.set(r.kind, r.until_ms);
        out.set(key, kinds);
      }
      return out;
    },
    async listActive(nowMs) {
      // Ties broken by channel, brand and kind, so every backend lists the same order.
      const rows = await ctx
        .db()
        .selectFrom('snoozes')
        .selectAll()
        .where('until_ms', '>', nowMs)
        .orderBy('until_ms')
        .orderBy('channel_id')
        .orderBy('brand_id')
        .orderBy('kind')
        .execute();
      return rows.map(fromRow);
    },
    async clear(channelId, brandId, kind) {
      let q = ctx
        .db()
        .deleteFrom('snoozes')
        .where('channel_id', '=', channelId)
        .where('brand_id', '=', brandId);
      if (kind !== undefined) q = q.where('kind', '=', kind);
      return count((await q.executeTakeFirst()).numDeletedRows);
    },
    async purgeExpired(nowMs, limit) {
      const db = ctx.db();
      const key = ['channel_id', 'brand_id', 'kind'] as const;
      const q =
        limit === undefined
          ? db.deleteFrom('snoozes').where('until_ms', '<=', nowMs)
          : db
              .deleteFrom('snoozes')
              .where((eb) =>
                eb(
                  eb.refTuple(...key),
                  'in',
                  ctx.sql
                    .lockRowsSkipLocked(
                      db.selectFrom('snoozes').select(key).where('until_ms', '<=', nowMs).limit(limit),
                    )
                    .$asTuple(...key),
                ),
              );
      return count((await q.executeTakeFirst()).numDeletedRows);
    },
  };
}
