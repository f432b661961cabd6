/**
 * changeHolds on a real SQLite file, with held rows written as the jobs write them: a
 * change to a mute re-holds what is held in the same transaction, says what still waits,
 * until when and why (the mute, a snooze of its kind, quiet hours), and nudges the relay
 * only when something was released.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { createDeliveryNudge } from '../../src/delivery-nudge.js';
import { changeHolds } from '../../src/use-cases/change-holds.js';
import { enqueueAlerts } from '../../src/use-cases/enqueue-alerts.js';
import { alert } from '../jobs/alert-fixtures.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

const H = 3_600_000;
const NOW = Date.parse('2025-03-10T12:00:00Z');
const CH = 'C0ALERTS1';
const ACME = { id: 'brand-1', name: 'Acme' };

let store: TempDb;
beforeEach(() => {
  store = tempDb();
});
afterEach(() => store.close());

describe('changeHolds', () => {
  it('re-holds by the mute, a snooze and quiet hours, earliest first, and nudges only on a release', async () => {
    const subs = store.store.subscriptions;
    await subs.upsert({
      channelId: CH,
      brandId: ACME.id,
      brandName: ACME.name,
      createdBy: 'U1',
      createdAtMs: NOW,
    });
    // Quiet 20:00–22:00 UTC; muted for a day; crawler alerts snoozed until tomorrow 18:00.
    await subs.setSettings(CH, ACME.id, {
      ...DEFAULT_ALERT_SETTINGS,
      quietHours: { start: '20:00', end: '22:00' },
    });
    await subs.setMutedUntil(CH, ACME.id, NOW + 24 * H);
    await store.store.snoozes.snooze({
      channelId: CH,
      brandId: ACME.id,
      kind: 'crawler_drop',
      untilMs: NOW + 30 * H,
      createdBy: 'U1',
      createdAtMs: NOW,
    });
    const sink = {
      outbox: store.store.outbox({ owner: 'test' }),
      snoozes: store.store.snoozes,
      defaultTimezone: 'UTC',
    };
    const sub = (await subs.get(CH, ACME.id))!;
    await enqueueAlerts(sink, sub, [alert('citation_lost', 'https://acme.example/a', ACME)], [], NOW);
    await enqueueAlerts(sink, sub, [alert('crawler_drop', 'GPTBot', ACME)], [], NOW);

    const nudge = createDeliveryNudge();
    let nudges = 0;
    nudge.onNudge(() => {
      nudges += 1;
    });
    const deps = { store: store.store, deliveryNudge: nudge };
    const mute = (until: number | null) =>
      changeHolds(deps, sub, () => subs.setMutedUntil(CH, ACME.id, until), 'UTC', NOW);

    // A shorter mute: the lost citation waits for it, the snoozed kind for its snooze.
    expect(await mute(NOW + 2 * H)).toEqual({
      released: 0,
      stillHeld: [
        { untilMs: NOW + 2 * H, reason: 'mute' },
        { untilMs: NOW + 30 * H, reason: 'snooze' },
      ],
    });
    // A mute ending at 21:00, inside quiet hours: it waits for their end at 22:00.
    expect((await mute(NOW + 9 * H)).stillHeld[0]).toEqual({ untilMs: NOW + 10 * H, reason: 'quiet_hours' });
    expect(nudges).toBe(0);

    // No mute at noon, outside quiet hours: released, and the relay is told once.
    expect(await mute(null)).toEqual({
      released: 1,
      stillHeld: [{ untilMs: NOW + 30 * H, reason: 'snooze' }],
    });
    expect(nudges).toBe(1);
  });

  it('a subscription gone meanwhile holds nothing and nudges nobody', async () => {
    const nudge = createDeliveryNudge();
    let nudges = 0;
    nudge.onNudge(() => {
      nudges += 1;
    });
    const outcome = await changeHolds(
      { store: store.store, deliveryNudge: nudge },
      { channelId: CH, brandId: ACME.id },
      async () => {},
      'UTC',
      NOW,
    );
    expect(outcome).toEqual({ released: 0, stillHeld: [] });
    expect(nudges).toBe(0);
  });
});
