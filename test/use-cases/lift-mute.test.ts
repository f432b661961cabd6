/**
 * liftMute on a real SQLite file, with held rows written the way the jobs write them
 * (enqueueAlerts for a muted subscription): ending a mute releases what only the mute held,
 * keeps what a snooze or quiet hours still hold, and leaves other brands' rows alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { createDeliveryNudge } from '../../src/delivery-nudge.js';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import type { OutboxRepo } from '../../src/store/outbox-repo.js';
import type { Subscription } from '../../src/store/subscriptions-repo.js';
import { enqueueAlerts } from '../../src/use-cases/enqueue-alerts.js';
import { liftMute } from '../../src/use-cases/lift-mute.js';
import { alert } from '../jobs/alert-fixtures.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

const H = 3_600_000;
const NOW = Date.parse('2025-03-10T12:00:00Z');
const CH = 'C0ALERTS1';
const ACME = { id: 'brand-1', name: 'Acme' };
const GLOBEX = { id: 'brand-2', name: 'Globex' };

let store: TempDb;
let outbox: OutboxRepo;

beforeEach(() => {
  store = tempDb();
  outbox = createSqliteStore(store.db).outbox({ owner: 'test' });
});
afterEach(() => store.close());

/** A subscription of CH to `brand`, muted for a week from NOW. */
async function mutedSub(
  brand: { id: string; name: string },
  quietHours: Subscription['settings']['quietHours'] = null,
) {
  const subs = store.store.subscriptions;
  await subs.upsert({
    channelId: CH,
    brandId: brand.id,
    brandName: brand.name,
    createdBy: 'U1',
    createdAtMs: NOW,
  });
  await subs.setSettings(CH, brand.id, { ...DEFAULT_ALERT_SETTINGS, quietHours });
  await subs.setMutedUntil(CH, brand.id, NOW + 7 * 24 * H);
  return (await subs.get(CH, brand.id))!;
}

/** One run's alerts for `sub`, written as the jobs write them (held by the mute). */
async function enqueue(sub: Subscription, ...alerts: ReturnType<typeof alert>[]) {
  const sink = { outbox, snoozes: createSqliteStore(store.db).snoozes, defaultTimezone: 'UTC' };
  const counts = await enqueueAlerts(sink, sub, alerts, [], NOW - H);
  expect(counts.held).toBe(1);
}

const heldUntil = async () =>
  new Map((await outbox.listHeld(CH)).map((r) => [`${r.brandId}:${r.payload.text}`, r.holdUntilMs]));

describe('liftMute', () => {
  it('releases what only the mute held, keeps what a snooze still holds, and leaves other brands alone', async () => {
    const acme = await mutedSub(ACME);
    const globex = await mutedSub(GLOBEX);
    await enqueue(acme, alert('citation_lost', 'https://acme.example/pricing', ACME));
    await enqueue(acme, alert('crawler_drop', 'GPTBot', ACME));
    await enqueue(globex, alert('citation_lost', 'https://globex.example/', GLOBEX));
    await createSqliteStore(store.db).snoozes.snooze({
      channelId: CH,
      brandId: ACME.id,
      kind: 'crawler_drop',
      untilMs: NOW + 24 * H,
      createdBy: 'U1',
      createdAtMs: NOW,
    });
    const globexHold = (await outbox.listHeld(CH)).find((r) => r.brandId === GLOBEX.id)!.holdUntilMs;

    const nudge = createDeliveryNudge();
    let nudges = 0;
    nudge.onNudge(() => {
      nudges += 1;
    });
    expect(await liftMute({ store: store.store, deliveryNudge: nudge }, acme, 'UTC', NOW)).toEqual({
      released: 1,
      stillHeld: [{ untilMs: NOW + 24 * H, reason: 'snooze' }],
    });
    // The relay of this process is told once, after the commit.
    expect(nudges).toBe(1);

    expect((await store.store.subscriptions.get(CH, ACME.id))!.mutedUntilMs).toBeNull();
    expect((await store.store.subscriptions.get(CH, GLOBEX.id))!.mutedUntilMs).not.toBeNull();
    const held = await outbox.listHeld(CH);
    const byKind = (kind: string) =>
      held.find(
        (r) => r.brandId === ACME.id && String(r.payload.metadata?.event_payload['kinds']).includes(kind),
      );
    // Due now: the relay's next drain delivers it.
    expect(byKind('citation_lost')!.holdUntilMs).toBe(NOW);
    expect(byKind('crawler_drop')!.holdUntilMs).toBe(NOW + 24 * H);
    expect(held.find((r) => r.brandId === GLOBEX.id)!.holdUntilMs).toBe(globexHold);
  });

  it('keeps alerts waiting for the end of quiet hours, and counts none as released', async () => {
    // 12:00 UTC falls inside 09:00–17:00 quiet hours.
    const acme = await mutedSub(ACME, { start: '09:00', end: '17:00' });
    await enqueue(acme, alert('citation_lost', 'https://acme.example/pricing', ACME));
    const nudge = createDeliveryNudge();
    let nudges = 0;
    nudge.onNudge(() => {
      nudges += 1;
    });
    expect(await liftMute({ store: store.store, deliveryNudge: nudge }, acme, 'UTC', NOW)).toEqual({
      released: 0,
      stillHeld: [{ untilMs: Date.parse('2025-03-10T17:00:00Z'), reason: 'quiet_hours' }],
    });
    expect([...(await heldUntil()).values()]).toEqual([Date.parse('2025-03-10T17:00:00Z')]);
    // Nothing was released: no drain is asked for.
    expect(nudges).toBe(0);
  });
});
