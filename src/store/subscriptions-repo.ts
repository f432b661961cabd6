/**
 * Channel subscriptions to a brand's alerts and digest: (channel, brand) is unique.
 * Settings are stored as JSON and always read back through `resolveAlertSettings`, so a
 * setting added later gets its default for old rows.
 */
import { type AlertSettings, resolveAlertSettings } from '../alerts/alert-settings.js';
import { asyncRepo } from './async-repo.js';
import type { Db } from './open-database.js';

export interface Subscription {
  id: number;
  channelId: string;
  brandId: string;
  brandName: string;
  alerts: boolean;
  digest: boolean;
  settings: AlertSettings;
  createdBy: string;
  createdAtMs: number;
  pausedReason: string | null;
  pausedAtMs: number | null;
  mutedUntilMs: number | null;
  lastDigestDate: string | null;
}

export interface NewSubscription {
  channelId: string;
  brandId: string;
  brandName: string;
  alerts?: boolean;
  digest?: boolean;
  settings?: AlertSettings;
  createdBy: string;
  createdAtMs: number;
}

export interface SubscriptionsRepo {
  /**
   * Creates the subscription, or refreshes an existing one (name, flags, settings when
   * given) and lifts a pause; `created` tells which.
   */
  upsert(s: NewSubscription): Promise<{ subscription: Subscription; created: boolean }>;
  get(channelId: string, brandId: string): Promise<Subscription | null>;
  getById(id: number): Promise<Subscription | null>;
  /** true when there was one to remove */
  remove(channelId: string, brandId: string): Promise<boolean>;
  listByChannel(channelId: string): Promise<Subscription[]>;
  listByBrand(brandId: string): Promise<Subscription[]>;
  /** Every subscription that is not paused; `want` narrows to alerts or digest on. */
  listActive(want?: 'alerts' | 'digest'): Promise<Subscription[]>;
  listAll(): Promise<Subscription[]>;
  /** Distinct brands with an active subscription (a brand watched by two channels is polled once). */
  activeBrandIds(want?: 'alerts' | 'digest'): Promise<string[]>;
  setSettings(channelId: string, brandId: string, settings: AlertSettings): Promise<boolean>;
  setFlags(
    channelId: string,
    brandId: string,
    flags: { alerts?: boolean; digest?: boolean },
  ): Promise<boolean>;
  setBrandName(brandId: string, brandName: string): Promise<number>;
  /** Pauses every subscription of a channel (channel_not_found and friends are per channel). */
  pauseChannel(channelId: string, reason: string, atMs: number): Promise<number>;
  resumeChannel(channelId: string): Promise<number>;
  /** null = unmute */
  setMutedUntil(channelId: string, brandId: string, untilMs: number | null): Promise<boolean>;
  markDigestSent(id: number, localDate: string): Promise<void>;
}

/**
 * A subscriptions row, as both backends return it: the flags are 0/1 in SQLite and
 * booleans in Postgres; `settings` is mapped by the caller (JSON text or jsonb).
 */
export interface SubscriptionRow {
  id: number;
  channel_id: string;
  brand_id: string;
  brand_name: string;
  alerts: number | boolean;
  digest: number | boolean;
  created_by: string;
  created_at_ms: number;
  paused_reason: string | null;
  paused_at_ms: number | null;
  muted_until_ms: number | null;
  last_digest_date: string | null;
}

/** The row as a Subscription; `settings` as read (unknown shape: the defaults fill what it lacks). */
export function subscriptionFromRow(r: SubscriptionRow, settings: unknown): Subscription {
  return {
    id: r.id,
    channelId: r.channel_id,
    brandId: r.brand_id,
    brandName: r.brand_name,
    alerts: r.alerts === 1 || r.alerts === true,
    digest: r.digest === 1 || r.digest === true,
    settings: resolveAlertSettings(settings),
    createdBy: r.created_by,
    createdAtMs: r.created_at_ms,
    pausedReason: r.paused_reason,
    pausedAtMs: r.paused_at_ms,
    mutedUntilMs: r.muted_until_ms,
    lastDigestDate: r.last_digest_date,
  };
}

type Row = SubscriptionRow & { settings: string };

function fromRow(r: Row): Subscription {
  let settings: unknown = {};
  try {
    settings = JSON.parse(r.settings);
  } catch {
    // A hand-edited row: the defaults are the safe reading.
  }
  return subscriptionFromRow(r, settings);
}

const ACTIVE = {
  any: 'paused_reason IS NULL',
  alerts: 'paused_reason IS NULL AND alerts = 1',
  digest: 'paused_reason IS NULL AND digest = 1',
} as const;

export function createSubscriptionsRepo(db: Db): SubscriptionsRepo {
  const selectOne = db.prepare('SELECT * FROM subscriptions WHERE channel_id = ? AND brand_id = ?');
  const selectById = db.prepare('SELECT * FROM subscriptions WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO subscriptions (channel_id, brand_id, brand_name, alerts, digest, settings, created_by, created_at_ms)
     VALUES (@channel_id, @brand_id, @brand_name, @alerts, @digest, @settings, @created_by, @created_at_ms)
     ON CONFLICT (channel_id, brand_id) DO NOTHING`,
  );
  const refresh = db.prepare(
    `UPDATE subscriptions SET brand_name = @brand_name, alerts = @alerts, digest = @digest,
       settings = COALESCE(@settings, settings), paused_reason = NULL, paused_at_ms = NULL
     WHERE channel_id = @channel_id AND brand_id = @brand_id`,
  );
  const del = db.prepare('DELETE FROM subscriptions WHERE channel_id = ? AND brand_id = ?');
  const byChannel = db.prepare('SELECT * FROM subscriptions WHERE channel_id = ? ORDER BY brand_name, id');
  const byBrand = db.prepare('SELECT * FROM subscriptions WHERE brand_id = ? ORDER BY channel_id');
  const all = db.prepare('SELECT * FROM subscriptions ORDER BY id');
  const active = {
    any: db.prepare(`SELECT * FROM subscriptions WHERE ${ACTIVE.any} ORDER BY id`),
    alerts: db.prepare(`SELECT * FROM subscriptions WHERE ${ACTIVE.alerts} ORDER BY id`),
    digest: db.prepare(`SELECT * FROM subscriptions WHERE ${ACTIVE.digest} ORDER BY id`),
  };
  const brands = {
    any: db
      .prepare(`SELECT DISTINCT brand_id FROM subscriptions WHERE ${ACTIVE.any} ORDER BY brand_id`)
      .pluck(),
    alerts: db
      .prepare(`SELECT DISTINCT brand_id FROM subscriptions WHERE ${ACTIVE.alerts} ORDER BY brand_id`)
      .pluck(),
    digest: db
      .prepare(`SELECT DISTINCT brand_id FROM subscriptions WHERE ${ACTIVE.digest} ORDER BY brand_id`)
      .pluck(),
  };
  const updSettings = db.prepare(
    'UPDATE subscriptions SET settings = ? WHERE channel_id = ? AND brand_id = ?',
  );
  const updFlags = db.prepare(
    `UPDATE subscriptions SET alerts = COALESCE(@alerts, alerts), digest = COALESCE(@digest, digest)
     WHERE channel_id = @channel_id AND brand_id = @brand_id`,
  );
  const updName = db.prepare('UPDATE subscriptions SET brand_name = ? WHERE brand_id = ?');
  const pause = db.prepare(
    'UPDATE subscriptions SET paused_reason = ?, paused_at_ms = ? WHERE channel_id = ? AND paused_reason IS NULL',
  );
  const resume = db.prepare(
    'UPDATE subscriptions SET paused_reason = NULL, paused_at_ms = NULL WHERE channel_id = ? AND paused_reason IS NOT NULL',
  );
  const mute = db.prepare(
    'UPDATE subscriptions SET muted_until_ms = ? WHERE channel_id = ? AND brand_id = ?',
  );
  const digestSent = db.prepare('UPDATE subscriptions SET last_digest_date = ? WHERE id = ?');
  // A digest prepared ahead (digest-job.ts) waits in the outbox for the time it was
  // prepared for, and the subscription counts it as sent for that date.
  const dropPrepared = db.prepare(
    `DELETE FROM outbox WHERE channel_id = ? AND brand_id = ? AND kind IN ('digest', 'chart')
       AND status = 'pending' AND send_after_ms IS NOT NULL AND dedupe_key IN (?, ?)`,
  );
  const unmarkDigest = db.prepare(
    "UPDATE subscriptions SET last_digest_date = date(last_digest_date, '-1 day') WHERE id = ?",
  );

  const get = (channelId: string, brandId: string) => {
    const r = selectOne.get(channelId, brandId) as Row | undefined;
    return r ? fromRow(r) : null;
  };
  const bool = (b: boolean | undefined) => (b === undefined ? null : b ? 1 : 0);

  /**
   * New settings; when they move the digest (its time or zone), a digest prepared for the
   * old time and not posted yet is taken back and the date counted as not sent, so the
   * scheduler prepares it again for the new time instead of posting at the old one. In one
   * transaction with the change: the relay never sees the old row after it.
   */
  const changeSettings = db.transaction((channelId: string, brandId: string, settings: AlertSettings) => {
    const before = get(channelId, brandId);
    const changed = updSettings.run(JSON.stringify(settings), channelId, brandId).changes > 0;
    if (!changed || !before?.lastDigestDate) return changed;
    const moved =
      before.settings.digestTime !== settings.digestTime || before.settings.timezone !== settings.timezone;
    // The outbox key of that digest (enqueue-alerts.ts channelDedupeKey, compose-digest.ts).
    const key = `${channelId}:digest:${brandId}:${before.lastDigestDate}`;
    // Its chart (digest-job.ts) goes with it: without its digest it would post alone.
    const chartKey = `${channelId}:chart:digest:${brandId}:${before.lastDigestDate}`;
    if (moved && dropPrepared.run(channelId, brandId, key, chartKey).changes > 0) unmarkDigest.run(before.id);
    return changed;
  });

  const upsert = db.transaction((s: NewSubscription) => {
    const params = {
      channel_id: s.channelId,
      brand_id: s.brandId,
      brand_name: s.brandName,
      alerts: s.alerts === false ? 0 : 1,
      digest: s.digest === false ? 0 : 1,
      settings: s.settings ? JSON.stringify(s.settings) : null,
      created_by: s.createdBy,
      created_at_ms: s.createdAtMs,
    };
    const created = insert.run({ ...params, settings: params.settings ?? '{}' }).changes === 1;
    if (!created) refresh.run(params);
    return { subscription: get(s.channelId, s.brandId)!, created };
  });

  return asyncRepo<SubscriptionsRepo>(db, {
    upsert: (s) => upsert.immediate(s),
    get,
    getById(id) {
      const r = selectById.get(id) as Row | undefined;
      return r ? fromRow(r) : null;
    },
    remove: (channelId, brandId) => del.run(channelId, brandId).changes > 0,
    listByChannel: (channelId) => (byChannel.all(channelId) as Row[]).map(fromRow),
    listByBrand: (brandId) => (byBrand.all(brandId) as Row[]).map(fromRow),
    listActive: (want) => (active[want ?? 'any'].all() as Row[]).map(fromRow),
    listAll: () => (all.all() as Row[]).map(fromRow),
    activeBrandIds: (want) => brands[want ?? 'any'].all() as string[],
    setSettings: (channelId, brandId, settings) => changeSettings.immediate(channelId, brandId, settings),
    setFlags: (channelId, brandId, flags) =>
      updFlags.run({
        alerts: bool(flags.alerts),
        digest: bool(flags.digest),
        channel_id: channelId,
        brand_id: brandId,
      }).changes > 0,
    setBrandName: (brandId, brandName) => updName.run(brandName, brandId).changes,
    pauseChannel: (channelId, reason, atMs) => pause.run(reason, atMs, channelId).changes,
    resumeChannel: (channelId) => resume.run(channelId).changes,
    setMutedUntil: (channelId, brandId, untilMs) => mute.run(untilMs, channelId, brandId).changes > 0,
    markDigestSent(id, localDate) {
      digestSent.run(localDate, id);
    },
  });
}
