/**
 * A change to what holds a channel's alerts for a brand (its mute, a snooze, quiet hours or
 * the time zone they are read in) and the alert messages already held, kept in step: the
 * change and a new hold for each held message are one transaction, so a message never
 * waits for a hold that is gone (quiet hours switched off no longer keep alerts until the
 * old window would have ended) nor slips out from under one just set.
 *
 * What nothing holds any more is released: the relay groups it into one message per brand
 * and posts it at its next drain, and the delivery nudge makes that drain happen now in
 * this process. Releasing stays exactly-once wherever it runs: the relay claims and groups
 * rows in transactions (release-held-alerts.ts), whichever process drains first.
 */
import type { DeliveryNudge } from '../delivery-nudge.js';
import type { Store } from '../store/store.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { alertHoldUntil } from './alert-hold.js';

export type HoldReason = 'mute' | 'snooze' | 'quiet_hours';

export interface HeldAlerts {
  /** Held alert messages released by the change: posted now, grouped. */
  released: number;
  /** The ones still held, earliest end first, with what holds each. */
  stillHeld: Array<{ untilMs: number; reason: HoldReason }>;
}

const NOTHING_HELD: HeldAlerts = Object.freeze({ released: 0, stillHeld: [] });

/** The alert kinds a message holds, as the alert builder records them in its metadata. */
function kindsOf(payload: { metadata?: { event_payload: Record<string, unknown> } }): string[] {
  const kinds = payload.metadata?.event_payload['kinds'];
  return typeof kinds === 'string' && kinds !== '' ? kinds.split(',') : [];
}

/**
 * Gives each alert message held for (channel, brand) the hold it has now: `sub`'s mute,
 * the snoozes still running for its kinds, quiet hours. After a hold was lifted (a mute,
 * a snooze, quiet hours), what nothing else holds is released; after one was set or
 * lengthened, held messages wait for it too.
 */
async function reholdHeldAlerts(
  store: Pick<Store, 'outbox' | 'snoozes'>,
  sub: Pick<Subscription, 'channelId' | 'brandId' | 'mutedUntilMs' | 'settings'>,
  defaultTimezone: string,
  nowMs: number,
): Promise<HeldAlerts> {
  const outbox = store.outbox();
  const snoozed = await store.snoozes.active(sub.channelId, sub.brandId, nowMs);
  const mutedUntil = sub.mutedUntilMs !== null && sub.mutedUntilMs > nowMs ? sub.mutedUntilMs : null;
  const base = {
    mutedUntilMs: mutedUntil,
    quietHours: sub.settings.quietHours,
    timeZone: sub.settings.timezone ?? defaultTimezone,
  };
  const outcome: HeldAlerts = { released: 0, stillHeld: [] };
  for (const row of await outbox.listHeld(sub.channelId)) {
    if (row.brandId !== sub.brandId || row.kind !== 'alert') continue;
    const snoozedUntil = Math.max(0, ...kindsOf(row.payload).map((k) => snoozed.get(k) ?? 0));
    const until = alertHoldUntil(nowMs, { ...base, snoozedUntilMs: snoozedUntil || null }) ?? nowMs;
    if (!(await outbox.rehold(row.id, until))) continue;
    if (until <= nowMs) outcome.released += 1;
    else {
      const reason: HoldReason =
        until > Math.max(mutedUntil ?? 0, snoozedUntil)
          ? 'quiet_hours'
          : (mutedUntil ?? 0) >= snoozedUntil
            ? 'mute'
            : 'snooze';
      outcome.stillHeld.push({ untilMs: until, reason });
    }
  }
  outcome.stillHeld.sort((a, b) => a.untilMs - b.untilMs);
  return outcome;
}

/**
 * Runs `change` (a write to the subscription or its snoozes) and re-holds the held alert
 * messages of that channel and brand in the same transaction; nudges this process's relay
 * when some were released.
 */
export async function changeHolds(
  deps: { store: Store; deliveryNudge: DeliveryNudge },
  target: Pick<Subscription, 'channelId' | 'brandId'>,
  change: () => Promise<unknown>,
  defaultTimezone: string,
  nowMs: number,
): Promise<HeldAlerts> {
  const { store } = deps;
  const outcome = await store.transaction(async () => {
    await change();
    const sub = await store.subscriptions.get(target.channelId, target.brandId);
    return sub ? reholdHeldAlerts(store, sub, defaultTimezone, nowMs) : NOTHING_HELD;
  });
  // After the commit: the relay must find the rows released when it looks.
  if (outcome.released > 0) deps.deliveryNudge.nudge();
  return outcome;
}
