import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { createSubscriptionsRepo, type SubscriptionsRepo } from '../../src/store/subscriptions-repo.js';
import { type TempDb, tempDb } from './temp-db.js';

let t: TempDb;
let repo: SubscriptionsRepo;
beforeEach(() => {
  t = tempDb();
  repo = createSubscriptionsRepo(t.db);
});
afterEach(() => t.close());

const sub = (channelId: string, brandId: string, extra = {}) => ({
  channelId,
  brandId,
  brandName: `Brand ${brandId}`,
  createdBy: 'U1',
  createdAtMs: 1000,
  ...extra,
});

describe('subscriptions repo', () => {
  it('migrates to version 4 (its tables) or later', () => {
    expect(t.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(4);
  });

  it('creates a subscription with default settings and flags', async () => {
    const { subscription, created } = await repo.upsert(sub('C1', 'b1'));
    expect(created).toBe(true);
    expect(subscription).toMatchObject({
      channelId: 'C1',
      brandId: 'b1',
      brandName: 'Brand b1',
      alerts: true,
      digest: true,
      settings: DEFAULT_ALERT_SETTINGS,
      createdBy: 'U1',
      createdAtMs: 1000,
      pausedReason: null,
      mutedUntilMs: null,
      lastDigestDate: null,
    });
  });

  it('(channel, brand) is unique: a second upsert refreshes, keeps settings unless given, lifts a pause', async () => {
    const first = await repo.upsert(
      sub('C1', 'b1', { settings: { ...DEFAULT_ALERT_SETTINGS, crawlerDropPct: 55 } }),
    );
    await repo.pauseChannel('C1', 'channel_not_found', 2000);
    const again = await repo.upsert(
      sub('C1', 'b1', { brandName: 'Renamed', digest: false, createdAtMs: 9999 }),
    );
    expect(again.created).toBe(false);
    expect(again.subscription.id).toBe(first.subscription.id);
    expect(again.subscription).toMatchObject({
      brandName: 'Renamed',
      digest: false,
      createdAtMs: 1000,
      pausedReason: null,
    });
    expect(again.subscription.settings.crawlerDropPct).toBe(55);
    expect(await repo.listAll()).toHaveLength(1);
  });

  it('settings, flags, mute and digest date round-trip', async () => {
    const { subscription } = await repo.upsert(sub('C1', 'b1'));
    const settings = {
      ...DEFAULT_ALERT_SETTINGS,
      timezone: 'Europe/Berlin',
      quietHours: { start: '22:00', end: '07:00' },
    };
    expect(await repo.setSettings('C1', 'b1', settings)).toBe(true);
    expect(await repo.setFlags('C1', 'b1', { alerts: false })).toBe(true);
    expect(await repo.setMutedUntil('C1', 'b1', 5000)).toBe(true);
    await repo.markDigestSent(subscription.id, '2025-03-01');
    expect(await repo.get('C1', 'b1')).toMatchObject({
      settings,
      alerts: false,
      digest: true,
      mutedUntilMs: 5000,
      lastDigestDate: '2025-03-01',
    });
    expect(await repo.setMutedUntil('C1', 'b1', null)).toBe(true);
    expect((await repo.get('C1', 'b1'))!.mutedUntilMs).toBeNull();
    expect(await repo.setSettings('C9', 'b1', settings)).toBe(false);
  });

  it('lists active subscriptions and distinct brands (a brand in two channels is polled once)', async () => {
    await repo.upsert(sub('C1', 'b1'));
    await repo.upsert(sub('C2', 'b1'));
    await repo.upsert(sub('C2', 'b2', { alerts: false }));
    await repo.upsert(sub('C3', 'b3'));
    expect(await repo.pauseChannel('C3', 'is_archived', 5)).toBe(1);
    expect(await repo.activeBrandIds()).toEqual(['b1', 'b2']);
    expect(await repo.activeBrandIds('alerts')).toEqual(['b1']);
    expect((await repo.listActive('digest')).map((s) => `${s.channelId}/${s.brandId}`)).toEqual([
      'C1/b1',
      'C2/b1',
      'C2/b2',
    ]);
    expect((await repo.listByBrand('b1')).map((s) => s.channelId)).toEqual(['C1', 'C2']);
    expect((await repo.listByChannel('C3'))[0]).toMatchObject({ pausedReason: 'is_archived', pausedAtMs: 5 });
    expect(await repo.resumeChannel('C3')).toBe(1);
    expect(await repo.activeBrandIds()).toEqual(['b1', 'b2', 'b3']);
  });

  it('renames a brand everywhere and removes a subscription', async () => {
    await repo.upsert(sub('C1', 'b1'));
    await repo.upsert(sub('C2', 'b1'));
    expect(await repo.setBrandName('b1', 'New name')).toBe(2);
    expect(await repo.remove('C1', 'b1')).toBe(true);
    expect(await repo.remove('C1', 'b1')).toBe(false);
    expect((await repo.get('C2', 'b1'))!.brandName).toBe('New name');
    expect(await repo.getById(999)).toBeNull();
  });

  it('a hand-broken settings column reads as the defaults', async () => {
    await repo.upsert(sub('C1', 'b1'));
    t.db.prepare("UPDATE subscriptions SET settings = 'not json'").run();
    expect((await repo.get('C1', 'b1'))!.settings).toEqual(DEFAULT_ALERT_SETTINGS);
  });
});
