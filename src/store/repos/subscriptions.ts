/**
 * SubscriptionsRepo (subscriptions-repo.ts has the contract), for both backends.
 *
 * Upsert inserts or does nothing, then refreshes the row it did not insert, in one
 * transaction: on Postgres, a replica subscribing the same channel to the same brand at
 * the same moment waits on the insert's conflict for the other's commit, so exactly one
 * of them is told it created the subscription. A settings change that moves the digest
 * reads the row locked, so two racing changes take back a prepared digest once.
 */
import { type AlertSettings, resolveAlertSettings } from '../../alerts/alert-settings.js';
import { isSet, type Row } from '../database.js';
import { count, type RepoContext } from '../repo-context.js';
import type { NewSubscription, Subscription, SubscriptionsRepo } from '../subscriptions-repo.js';

function fromRow(r: Row<'subscriptions'>): Subscription {
  let settings: unknown = {};
  try {
    settings = JSON.parse(r.settings);
  } catch {
    // A hand-edited row: the defaults are the safe reading.
  }
  return {
    id: r.id,
    channelId: r.channel_id,
    brandId: r.brand_id,
    brandName: r.brand_name,
    alerts: isSet(r.alerts),
    digest: isSet(r.digest),
    settings: resolveAlertSettings(settings),
    createdBy: r.created_by,
    createdAtMs: r.created_at_ms,
    pausedReason: r.paused_reason,
    pausedAtMs: r.paused_at_ms,
    mutedUntilMs: r.muted_until_ms,
    lastDigestDate: r.last_digest_date,
  };
}

/** The local date before `date` (YYYY-MM-DD), or null when it is no date. */
function dayBefore(date: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return null;
  return new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
}

// Long by design: one short method per query of the subscriptions table; each reads alone.
export function createSubscriptionsRepo(ctx: RepoContext): SubscriptionsRepo {
  const table = () => ctx.db().selectFrom('subscriptions').selectAll();
  const active = (want?: 'alerts' | 'digest') => {
    let q = table().where('paused_reason', 'is', null);
    if (want) q = q.where(want, '=', true);
    return q;
  };
  const one = async (channelId: string, brandId: string, lock = false) => {
    let q = table().where('channel_id', '=', channelId).where('brand_id', '=', brandId);
    if (lock) q = ctx.sql.lockRows(q);
    const r = await q.executeTakeFirst();
    return r ? fromRow(r) : null;
  };
  const update = () => ctx.db().updateTable('subscriptions');
  const changed = async (q: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }) =>
    count((await q.executeTakeFirst()).numUpdatedRows);

  /**
   * New settings; when they move the digest (its time or zone), a digest prepared for the
   * old time and not posted yet is taken back and the date counted as not sent, so the
   * scheduler prepares it again for the new time instead of posting at the old one. In one
   * transaction with the change: the relay never sees the old row after it.
   */
  const setSettings = (channelId: string, brandId: string, settings: AlertSettings) =>
    ctx.transaction(async () => {
      const before = await one(channelId, brandId, true);
      if (!before) return false;
      await update()
        .set({ settings: ctx.sql.json(settings) })
        .where('id', '=', before.id)
        .execute();
      const moved =
        before.settings.digestTime !== settings.digestTime || before.settings.timezone !== settings.timezone;
      if (!before.lastDigestDate || !moved) return true;
      // The outbox keys of that digest and its chart (enqueue-alerts.ts, digest-job.ts).
      const key = `${channelId}:digest:${brandId}:${before.lastDigestDate}`;
      const chartKey = `${channelId}:chart:digest:${brandId}:${before.lastDigestDate}`;
      const dropped = await ctx
        .db()
        .deleteFrom('outbox')
        .where('channel_id', '=', channelId)
        .where('brand_id', '=', brandId)
        .where('kind', 'in', ['digest', 'chart'])
        .where('status', '=', 'pending')
        .where('send_after_ms', 'is not', null)
        .where('dedupe_key', 'in', [key, chartKey])
        .executeTakeFirst();
      if (count(dropped.numDeletedRows) > 0) {
        await update()
          .set({ last_digest_date: dayBefore(before.lastDigestDate) })
          .where('id', '=', before.id)
          .execute();
      }
      return true;
    });

  const upsert = (s: NewSubscription) =>
    ctx.transaction(async () => {
      const inserted = await ctx
        .db()
        .insertInto('subscriptions')
        .values({
          channel_id: s.channelId,
          brand_id: s.brandId,
          brand_name: s.brandName,
          alerts: s.alerts !== false,
          digest: s.digest !== false,
          settings: s.settings ? ctx.sql.json(s.settings) : '{}',
          created_by: s.createdBy,
          created_at_ms: s.createdAtMs,
        })
        .onConflict((oc) => oc.columns(['channel_id', 'brand_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        await update()
          .set({
            brand_name: s.brandName,
            alerts: s.alerts !== false,
            digest: s.digest !== false,
            ...(s.settings ? { settings: ctx.sql.json(s.settings) } : {}),
            paused_reason: null,
            paused_at_ms: null,
          })
          .where('channel_id', '=', s.channelId)
          .where('brand_id', '=', s.brandId)
          .execute();
      }
      return { subscription: (await one(s.channelId, s.brandId))!, created: inserted !== undefined };
    });

  return {
    upsert,
    get: (channelId, brandId) => one(channelId, brandId),
    async getById(id) {
      const r = await table().where('id', '=', id).executeTakeFirst();
      return r ? fromRow(r) : null;
    },
    async remove(channelId, brandId) {
      const r = await ctx
        .db()
        .deleteFrom('subscriptions')
        .where('channel_id', '=', channelId)
        .where('brand_id', '=', brandId)
        .executeTakeFirst();
      return count(r.numDeletedRows) > 0;
    },
    listByChannel: async (channelId) =>
      (await table().where('channel_id', '=', channelId).orderBy('brand_name').orderBy('id').execute()).map(
        fromRow,
      ),
    listByBrand: async (brandId) =>
      (await table().where('brand_id', '=', brandId).orderBy('channel_id').execute()).map(fromRow),
    listActive: async (want) => (await active(want).orderBy('id').execute()).map(fromRow),
    listAll: async () => (await table().orderBy('id').execute()).map(fromRow),
    async activeBrandIds(want) {
      let q = ctx
        .db()
        .selectFrom('subscriptions')
        .select('brand_id')
        .distinct()
        .where('paused_reason', 'is', null);
      if (want) q = q.where(want, '=', true);
      return (await q.orderBy('brand_id').execute()).map((r) => r.brand_id);
    },
    setSettings,
    async setFlags(channelId, brandId, flags) {
      const set = {
        ...(flags.alerts === undefined ? {} : { alerts: flags.alerts }),
        ...(flags.digest === undefined ? {} : { digest: flags.digest }),
      };
      if (Object.keys(set).length === 0) return (await one(channelId, brandId)) !== null;
      const q = update().set(set).where('channel_id', '=', channelId).where('brand_id', '=', brandId);
      return (await changed(q)) > 0;
    },
    setBrandName: (brandId, brandName) =>
      changed(update().set({ brand_name: brandName }).where('brand_id', '=', brandId)),
    // The condition on paused_reason is checked again on the row a concurrent pause just
    // committed (Postgres), so of two replicas pausing one channel only one counts the rows.
    pauseChannel: (channelId, reason, atMs) =>
      changed(
        update()
          .set({ paused_reason: reason, paused_at_ms: atMs })
          .where('channel_id', '=', channelId)
          .where('paused_reason', 'is', null),
      ),
    resumeChannel: (channelId) =>
      changed(
        update()
          .set({ paused_reason: null, paused_at_ms: null })
          .where('channel_id', '=', channelId)
          .where('paused_reason', 'is not', null),
      ),
    setMutedUntil: async (channelId, brandId, untilMs) =>
      (await changed(
        update()
          .set({ muted_until_ms: untilMs })
          .where('channel_id', '=', channelId)
          .where('brand_id', '=', brandId),
      )) > 0,
    async markDigestSent(id, localDate) {
      await update().set({ last_digest_date: localDate }).where('id', '=', id).execute();
    },
  };
}
