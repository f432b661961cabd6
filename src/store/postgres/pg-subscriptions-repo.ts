/**
 * SubscriptionsRepo on Postgres (subscriptions-repo.ts has the contract). Upsert is one
 * INSERT … ON CONFLICT … DO UPDATE, so two replicas subscribing the same channel to the
 * same brand at once end with one row, and exactly one of them is told it created it.
 * A settings change that moves the digest locks the row first (SELECT … FOR UPDATE), so
 * two racing changes take back a prepared digest and count its date as unsent once.
 */
import type { AlertSettings } from '../../alerts/alert-settings.js';
import {
  type NewSubscription,
  type Subscription,
  type SubscriptionRow,
  type SubscriptionsRepo,
  subscriptionFromRow,
} from '../subscriptions-repo.js';
import type { PgPool } from './create-pool.js';
import { pgJson, pgText } from './pg-text.js';
import { pgExecutor, pgTransaction } from './pg-transaction.js';

type Row = SubscriptionRow & { settings: unknown };

// jsonb is always valid JSON, but a hand-edited row may hold anything: the defaults are the
// safe reading, as on SQLite.
const fromRow = (r: Row): Subscription => subscriptionFromRow(r, r.settings);

const ACTIVE = {
  any: 'paused_reason IS NULL',
  alerts: 'paused_reason IS NULL AND alerts',
  digest: 'paused_reason IS NULL AND digest',
} as const;

/**
 * The local date before `date` (YYYY-MM-DD), or null when it is no date, as SQLite's
 * date(x, '-1 day') answers.
 */
function dayBefore(date: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return null;
  return new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
}

export function createPgSubscriptionsRepo(pool: PgPool): SubscriptionsRepo {
  // Every text parameter goes through pgText: names and reasons come from the API and
  // Slack, and an id looked up must match the id as it was written.
  const query = <R extends object = Row>(sql: string, params: unknown[] = []) =>
    pgExecutor(pool).query<R>(
      sql,
      params.map((p) => (typeof p === 'string' ? pgText(p) : p)),
    );
  const many = async (sql: string, params: unknown[] = []) => (await query(sql, params)).rows.map(fromRow);
  const one = async (sql: string, params: unknown[]) => (await many(sql, params))[0] ?? null;
  const changed = async (sql: string, params: unknown[]) => (await query(sql, params)).rowCount ?? 0;

  const get = (channelId: string, brandId: string) =>
    one('SELECT * FROM subscriptions WHERE channel_id = $1 AND brand_id = $2', [channelId, brandId]);

  /** See SubscriptionsRepo.setSettings on SQLite: a moved digest is prepared again. */
  const changeSettings = (channelId: string, brandId: string, settings: AlertSettings) =>
    pgTransaction(pool, async () => {
      const before = await one(
        'SELECT * FROM subscriptions WHERE channel_id = $1 AND brand_id = $2 FOR UPDATE',
        [channelId, brandId],
      );
      if (!before) return false;
      await query('UPDATE subscriptions SET settings = $1::jsonb WHERE id = $2', [
        pgJson(settings),
        before.id,
      ]);
      if (!before.lastDigestDate) return true;
      const moved =
        before.settings.digestTime !== settings.digestTime || before.settings.timezone !== settings.timezone;
      if (!moved) return true;
      // The outbox keys of that digest and its chart (enqueue-alerts.ts, digest-job.ts).
      const key = `${channelId}:digest:${brandId}:${before.lastDigestDate}`;
      const chartKey = `${channelId}:chart:digest:${brandId}:${before.lastDigestDate}`;
      const dropped = await changed(
        `DELETE FROM outbox WHERE channel_id = $1 AND brand_id = $2 AND kind IN ('digest', 'chart')
           AND status = 'pending' AND send_after_ms IS NOT NULL AND dedupe_key IN ($3, $4)`,
        [channelId, brandId, key, chartKey],
      );
      if (dropped > 0) {
        await query('UPDATE subscriptions SET last_digest_date = $1 WHERE id = $2', [
          dayBefore(before.lastDigestDate),
          before.id,
        ]);
      }
      return true;
    });

  return {
    async upsert(s: NewSubscription) {
      // xmax is 0 only on a row this statement inserted; a conflicting row it updated
      // carries the updating transaction's id.
      const { rows } = await query<Row & { inserted: boolean }>(
        `INSERT INTO subscriptions AS s
           (channel_id, brand_id, brand_name, alerts, digest, settings, created_by, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, COALESCE($6::jsonb, '{}'::jsonb), $7, $8)
         ON CONFLICT (channel_id, brand_id) DO UPDATE SET
           brand_name = EXCLUDED.brand_name, alerts = EXCLUDED.alerts, digest = EXCLUDED.digest,
           settings = COALESCE($6::jsonb, s.settings), paused_reason = NULL, paused_at_ms = NULL
         RETURNING *, (xmax = 0) AS inserted`,
        [
          s.channelId,
          s.brandId,
          s.brandName,
          s.alerts !== false,
          s.digest !== false,
          s.settings ? pgJson(s.settings) : null,
          s.createdBy,
          s.createdAtMs,
        ],
      );
      const row = rows[0]!;
      return { subscription: fromRow(row), created: row.inserted };
    },
    get,
    getById: (id) => one('SELECT * FROM subscriptions WHERE id = $1', [id]),
    remove: async (channelId, brandId) =>
      (await changed('DELETE FROM subscriptions WHERE channel_id = $1 AND brand_id = $2', [
        channelId,
        brandId,
      ])) > 0,
    listByChannel: (channelId) =>
      many('SELECT * FROM subscriptions WHERE channel_id = $1 ORDER BY brand_name, id', [channelId]),
    listByBrand: (brandId) =>
      many('SELECT * FROM subscriptions WHERE brand_id = $1 ORDER BY channel_id', [brandId]),
    listActive: (want) => many(`SELECT * FROM subscriptions WHERE ${ACTIVE[want ?? 'any']} ORDER BY id`),
    listAll: () => many('SELECT * FROM subscriptions ORDER BY id'),
    async activeBrandIds(want) {
      const { rows } = await query<{ brand_id: string }>(
        `SELECT DISTINCT brand_id FROM subscriptions WHERE ${ACTIVE[want ?? 'any']} ORDER BY brand_id`,
      );
      return rows.map((r) => r.brand_id);
    },
    setSettings: changeSettings,
    setFlags: async (channelId, brandId, flags) =>
      (await changed(
        `UPDATE subscriptions SET alerts = COALESCE($1, alerts), digest = COALESCE($2, digest)
         WHERE channel_id = $3 AND brand_id = $4`,
        [flags.alerts ?? null, flags.digest ?? null, channelId, brandId],
      )) > 0,
    setBrandName: (brandId, brandName) =>
      changed('UPDATE subscriptions SET brand_name = $1 WHERE brand_id = $2', [brandName, brandId]),
    // The WHERE on paused_reason is evaluated again on the row a concurrent pause just
    // committed, so of two replicas pausing one channel only one counts the rows.
    pauseChannel: (channelId, reason, atMs) =>
      changed(
        'UPDATE subscriptions SET paused_reason = $1, paused_at_ms = $2 WHERE channel_id = $3 AND paused_reason IS NULL',
        [reason, atMs, channelId],
      ),
    resumeChannel: (channelId) =>
      changed(
        'UPDATE subscriptions SET paused_reason = NULL, paused_at_ms = NULL WHERE channel_id = $1 AND paused_reason IS NOT NULL',
        [channelId],
      ),
    setMutedUntil: async (channelId, brandId, untilMs) =>
      (await changed('UPDATE subscriptions SET muted_until_ms = $1 WHERE channel_id = $2 AND brand_id = $3', [
        untilMs,
        channelId,
        brandId,
      ])) > 0,
    async markDigestSent(id, localDate) {
      await query('UPDATE subscriptions SET last_digest_date = $1 WHERE id = $2', [localDate, id]);
    },
  };
}
