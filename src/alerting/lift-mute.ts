/**
 * `unmute` before the mute ran out: the alert messages it was holding get the hold they
 * would have had without it (quiet hours, a snooze of their kind still apply), so most are
 * released at once and the relay delivers them grouped at its next drain, instead of
 * waiting for the old end of the mute.
 */
import type { Store } from '../store/store.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { alertHoldUntil } from './alert-hold.js';

/** The alert kinds a message holds, as the alert builder records them in its metadata. */
function kindsOf(payload: { metadata?: { event_payload: Record<string, unknown> } }): string[] {
  const kinds = payload.metadata?.event_payload['kinds'];
  return typeof kinds === 'string' && kinds !== '' ? kinds.split(',') : [];
}

export function liftMute(
  store: Store,
  sub: Subscription,
  defaultTimezone: string,
  nowMs: number,
): Promise<{ released: number }> {
  return store.transaction(async () => {
    await store.subscriptions.setMutedUntil(sub.channelId, sub.brandId, null);
    return {
      released: await reholdHeldAlerts(store, { ...sub, mutedUntilMs: null }, defaultTimezone, nowMs),
    };
  });
}

/**
 * Gives each alert message held for (channel, brand) the hold it has now: `sub`'s mute,
 * the snoozes still running for its kinds, quiet hours. After a hold was lifted (a mute,
 * a snooze), what nothing else holds is released. Returns how many were released.
 */
export async function reholdHeldAlerts(
  store: Pick<Store, 'outbox' | 'snoozes'>,
  sub: Pick<Subscription, 'channelId' | 'brandId' | 'mutedUntilMs' | 'settings'>,
  defaultTimezone: string,
  nowMs: number,
): Promise<number> {
  const outbox = store.outbox();
  const snoozed = await store.snoozes.active(sub.channelId, sub.brandId, nowMs);
  const base = {
    mutedUntilMs: sub.mutedUntilMs,
    quietHours: sub.settings.quietHours,
    timeZone: sub.settings.timezone ?? defaultTimezone,
  };
  let released = 0;
  for (const row of await outbox.listHeld(sub.channelId)) {
    if (row.brandId !== sub.brandId || row.kind !== 'alert') continue;
    const kinds = kindsOf(row.payload);
    const holds = (kinds.length > 0 ? kinds : [undefined]).map(
      (k) =>
        alertHoldUntil(nowMs, { ...base, snoozedUntilMs: k === undefined ? null : snoozed.get(k) }) ?? nowMs,
    );
    const until = Math.max(...holds);
    if ((await outbox.rehold(row.id, until)) && until <= nowMs) released += 1;
  }
  return released;
}
