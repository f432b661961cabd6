/**
 * SubscriptionsRepo on both backends: who watches which brand where, with what settings,
 * paused or muted, and which digest date was last prepared.
 */
import { expect, it } from 'vitest';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from '../../../src/alerts/alert-settings.js';
import type { SubscriptionsRepo } from '../../../src/store/subscriptions-repo.js';
import { describeBackends, type TestBackend } from './store-backends.js';

const repoOn = (b: TestBackend): SubscriptionsRepo => b.store().subscriptions;

/** A statement written with `?` placeholders, run as it is on SQLite and with `$n` on Postgres. */
async function exec(b: TestBackend, sql: string, ...params: unknown[]): Promise<void> {
  if (b.kind === 'sqlite') {
    b.db.prepare(sql).run(...params);
  } else {
    let n = 0;
    await b.pool.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  }
}

async function outboxKeys(b: TestBackend): Promise<string[]> {
  const sql = 'SELECT dedupe_key FROM outbox ORDER BY dedupe_key';
  const rows =
    b.kind === 'sqlite'
      ? (b.db.prepare(sql).all() as { dedupe_key: string }[])
      : (await b.pool.query<{ dedupe_key: string }>(sql)).rows;
  return rows.map((r) => r.dedupe_key);
}

/** An outbox row as the digest job writes one ahead of its local time (or posted already). */
function prepared(b: TestBackend, key: string, kind: 'digest' | 'chart', status = 'pending') {
  return exec(
    b,
    `INSERT INTO outbox (dedupe_key, channel_id, brand_id, kind, payload, status, next_attempt_at_ms,
       created_at_ms, send_after_ms) VALUES (?, 'C1', 'b1', ?, '{}', ?, 0, 0, 5000)`,
    key,
    kind,
    status,
  );
}

const sub = (channelId: string, brandId: string, extra = {}) => ({
  channelId,
  brandId,
  brandName: `Brand ${brandId}`,
  createdBy: 'U1',
  createdAtMs: 1000,
  ...extra,
});

describeBackends('subscriptions', (backend) => {
  it('creates a subscription with default settings and flags', async () => {
    const repo = repoOn(backend());
    const { subscription, created } = await repo.upsert(sub('C1', 'b1'));
    expect(created).toBe(true);
    expect(subscription).toEqual({
      id: subscription.id,
      channelId: 'C1',
      brandId: 'b1',
      brandName: 'Brand b1',
      alerts: true,
      digest: true,
      settings: DEFAULT_ALERT_SETTINGS,
      createdBy: 'U1',
      createdAtMs: 1000,
      pausedReason: null,
      pausedAtMs: null,
      mutedUntilMs: null,
      lastDigestDate: null,
    });
    expect(typeof subscription.id).toBe('number');
    expect(await repo.getById(subscription.id)).toEqual(subscription);
  });

  it('(channel, brand) is unique: a second upsert refreshes, keeps settings unless given, lifts a pause', async () => {
    const repo = repoOn(backend());
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
      alerts: true,
      digest: false,
      createdAtMs: 1000,
      pausedReason: null,
      pausedAtMs: null,
    });
    expect(again.subscription.settings.crawlerDropPct).toBe(55);
    const third = await repo.upsert(
      sub('C1', 'b1', { alerts: false, settings: { ...DEFAULT_ALERT_SETTINGS, crawlerDropPct: 70 } }),
    );
    expect(third.subscription).toMatchObject({ alerts: false, digest: true });
    expect(third.subscription.settings.crawlerDropPct).toBe(70);
    expect(await repo.listAll()).toHaveLength(1);
  });

  it('settings, flags, mute and digest date round-trip', async () => {
    const repo = repoOn(backend());
    const { subscription } = await repo.upsert(sub('C1', 'b1'));
    const settings: AlertSettings = {
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
    expect(await repo.setFlags('C1', 'b1', { digest: false, alerts: true })).toBe(true);
    expect(await repo.get('C1', 'b1')).toMatchObject({ alerts: true, digest: false });
    expect(await repo.setMutedUntil('C1', 'b1', null)).toBe(true);
    expect((await repo.get('C1', 'b1'))!.mutedUntilMs).toBeNull();
    expect(await repo.setSettings('C9', 'b1', settings)).toBe(false);
    expect(await repo.setFlags('C9', 'b1', { alerts: true })).toBe(false);
    expect(await repo.setMutedUntil('C9', 'b1', 1)).toBe(false);
    expect(await repo.get('C9', 'b1')).toBeNull();
  });

  it('lists active subscriptions and distinct brands (a brand in two channels is polled once)', async () => {
    const repo = repoOn(backend());
    await repo.upsert(sub('C1', 'b1'));
    await repo.upsert(sub('C2', 'b1'));
    await repo.upsert(sub('C2', 'b2', { alerts: false }));
    await repo.upsert(sub('C3', 'b3'));
    expect(await repo.pauseChannel('C3', 'is_archived', 5)).toBe(1);
    expect(await repo.pauseChannel('C3', 'is_archived', 6)).toBe(0);
    expect(await repo.activeBrandIds()).toEqual(['b1', 'b2']);
    expect(await repo.activeBrandIds('alerts')).toEqual(['b1']);
    expect(await repo.activeBrandIds('digest')).toEqual(['b1', 'b2']);
    expect((await repo.listActive('digest')).map((s) => `${s.channelId}/${s.brandId}`)).toEqual([
      'C1/b1',
      'C2/b1',
      'C2/b2',
    ]);
    expect((await repo.listActive('alerts')).map((s) => `${s.channelId}/${s.brandId}`)).toEqual([
      'C1/b1',
      'C2/b1',
    ]);
    expect(await repo.listActive()).toHaveLength(3);
    expect((await repo.listByBrand('b1')).map((s) => s.channelId)).toEqual(['C1', 'C2']);
    expect((await repo.listByChannel('C3'))[0]).toMatchObject({ pausedReason: 'is_archived', pausedAtMs: 5 });
    expect(await repo.resumeChannel('C3')).toBe(1);
    expect(await repo.resumeChannel('C3')).toBe(0);
    expect(await repo.activeBrandIds()).toEqual(['b1', 'b2', 'b3']);
  });

  it('lists a channel by brand name', async () => {
    const repo = repoOn(backend());
    await repo.upsert(sub('C1', 'b1', { brandName: 'Zeta' }));
    await repo.upsert(sub('C1', 'b2', { brandName: 'Alpha' }));
    await repo.upsert(sub('C2', 'b3', { brandName: 'Beta' }));
    expect((await repo.listByChannel('C1')).map((s) => s.brandName)).toEqual(['Alpha', 'Zeta']);
  });

  it('renames a brand everywhere and removes a subscription', async () => {
    const repo = repoOn(backend());
    await repo.upsert(sub('C1', 'b1'));
    await repo.upsert(sub('C2', 'b1'));
    expect(await repo.setBrandName('b1', 'New name')).toBe(2);
    expect(await repo.remove('C1', 'b1')).toBe(true);
    expect(await repo.remove('C1', 'b1')).toBe(false);
    expect((await repo.get('C2', 'b1'))!.brandName).toBe('New name');
    expect(await repo.getById(999)).toBeNull();
  });

  it('a hand-broken settings column reads as the defaults', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.upsert(sub('C1', 'b1'));
    // Postgres keeps settings as jsonb, which cannot hold broken JSON; a value of the
    // wrong shape is the broken row there.
    await exec(
      b,
      b.kind === 'sqlite'
        ? "UPDATE subscriptions SET settings = 'not json'"
        : `UPDATE subscriptions SET settings = '"not settings"'::jsonb`,
    );
    expect((await repo.get('C1', 'b1'))!.settings).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it('keeps a brand name with a NUL from the API instead of failing the write', async () => {
    const b = backend();
    const repo = repoOn(b);
    const { subscription } = await repo.upsert(sub('C1', 'b1', { brandName: 'Ac\u0000me' }));
    // SQLite keeps the NUL; Postgres cannot, and stores the replacement character.
    expect(subscription.brandName).toBe(b.kind === 'sqlite' ? 'Ac\u0000me' : 'Ac\ufffdme');
    expect(await repo.setBrandName('b1', 'New\u0000')).toBe(1);
    expect((await repo.get('C1', 'b1'))!.brandName).toBe(b.kind === 'sqlite' ? 'New\u0000' : 'New\ufffd');
  });

  it('moving the digest takes back the digest and chart prepared for the old time and counts the date unsent', async () => {
    const b = backend();
    const repo = repoOn(b);
    const { subscription } = await repo.upsert(sub('C1', 'b1'));
    await repo.upsert(sub('C2', 'b1'));
    await repo.markDigestSent(subscription.id, '2026-03-01');
    await prepared(b, 'C1:digest:b1:2026-03-01', 'digest');
    await prepared(b, 'C1:chart:digest:b1:2026-03-01', 'chart');
    // Another day's digest and a row already posted are not the prepared digest.
    await prepared(b, 'C1:digest:b1:2026-02-28', 'digest');

    // A change that does not move the digest keeps what was prepared.
    const quiet = { ...DEFAULT_ALERT_SETTINGS, crawlerDropPct: 60 };
    expect(await repo.setSettings('C1', 'b1', quiet)).toBe(true);
    expect(await outboxKeys(b)).toHaveLength(3);
    expect((await repo.get('C1', 'b1'))!.lastDigestDate).toBe('2026-03-01');

    expect(await repo.setSettings('C1', 'b1', { ...quiet, digestTime: '17:30' })).toBe(true);
    expect(await outboxKeys(b)).toEqual(['C1:digest:b1:2026-02-28']);
    // The day before, across the month's end: the scheduler prepares 2026-03-01 again.
    expect(await repo.get('C1', 'b1')).toMatchObject({
      lastDigestDate: '2026-02-28',
      settings: { ...quiet, digestTime: '17:30' },
    });
  });

  it('moving the digest when it was already posted changes only the settings', async () => {
    const b = backend();
    const repo = repoOn(b);
    const { subscription } = await repo.upsert(sub('C1', 'b1'));
    await repo.markDigestSent(subscription.id, '2026-03-01');
    await prepared(b, 'C1:digest:b1:2026-03-01', 'digest', 'sent');
    expect(await repo.setSettings('C1', 'b1', { ...DEFAULT_ALERT_SETTINGS, timezone: 'Asia/Tokyo' })).toBe(
      true,
    );
    expect(await outboxKeys(b)).toEqual(['C1:digest:b1:2026-03-01']);
    expect(await repo.get('C1', 'b1')).toMatchObject({
      lastDigestDate: '2026-03-01',
      settings: { timezone: 'Asia/Tokyo' },
    });
  });

  it('writes inside a transaction that rolls back leave nothing', async () => {
    const b = backend();
    const repo = repoOn(b);
    await repo.upsert(sub('C1', 'b1'));
    await expect(
      b.transaction(async () => {
        await repo.upsert(sub('C2', 'b2'));
        await repo.setFlags('C1', 'b1', { alerts: false });
        await repo.setSettings('C1', 'b1', { ...DEFAULT_ALERT_SETTINGS, crawlerDropPct: 80 });
        await repo.pauseChannel('C1', 'is_archived', 5);
        // Reads inside the transaction see its own writes.
        expect((await repo.get('C1', 'b1'))!.pausedReason).toBe('is_archived');
        throw new Error('the command failed');
      }),
    ).rejects.toThrow('the command failed');
    expect(await repo.get('C2', 'b2')).toBeNull();
    expect(await repo.get('C1', 'b1')).toMatchObject({
      alerts: true,
      pausedReason: null,
      settings: DEFAULT_ALERT_SETTINGS,
    });
  });

  it('of several connections subscribing the same channel to a brand at once, exactly one creates it', async () => {
    const repos = [backend(), backend().other(), backend().other()].map(repoOn);
    const results = await Promise.all(repos.map((r, i) => r.upsert(sub('C1', 'b1', { createdBy: `U${i}` }))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.subscription.id)).size).toBe(1);
    expect(await repos[0]!.listAll()).toHaveLength(1);
  });

  it('two connections moving the digest at once count the prepared date as unsent once', async () => {
    const b = backend();
    const repos = [b, b.other()].map(repoOn);
    const { subscription } = await repos[0]!.upsert(sub('C1', 'b1'));
    await repos[0]!.markDigestSent(subscription.id, '2026-03-10');
    await prepared(b, 'C1:digest:b1:2026-03-10', 'digest');
    const results = await Promise.all([
      repos[0]!.setSettings('C1', 'b1', { ...DEFAULT_ALERT_SETTINGS, digestTime: '07:00' }),
      repos[1]!.setSettings('C1', 'b1', { ...DEFAULT_ALERT_SETTINGS, digestTime: '18:00' }),
    ]);
    expect(results).toEqual([true, true]);
    expect(await outboxKeys(b)).toEqual([]);
    const after = (await repos[1]!.get('C1', 'b1'))!;
    expect(after.lastDigestDate).toBe('2026-03-09');
    expect(['07:00', '18:00']).toContain(after.settings.digestTime);
  });

  it('two connections pausing a channel at once count each subscription once', async () => {
    const repos = [backend(), backend().other()].map(repoOn);
    for (const brand of ['b1', 'b2', 'b3']) await repos[0]!.upsert(sub('C1', brand));
    const counts = await Promise.all(repos.map((r, i) => r.pauseChannel('C1', 'channel_not_found', 10 + i)));
    expect(counts[0]! + counts[1]!).toBe(3);
    expect(await repos[1]!.listActive()).toEqual([]);
  });
});
