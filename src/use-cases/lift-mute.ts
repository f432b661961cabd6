/**
 * `unmute` before the mute ran out: the alert messages it was holding get the hold they
 * would have had without it (quiet hours, a snooze of their kind still apply), so most are
 * released at once and this process's relay posts them grouped right away, instead of
 * waiting for the old end of the mute (change-holds.ts).
 */
import type { DeliveryNudge } from '../delivery-nudge.js';
import type { Store } from '../store/store.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { changeHolds, type HeldAlerts } from './change-holds.js';

export function liftMute(
  deps: { store: Store; deliveryNudge: DeliveryNudge },
  sub: Pick<Subscription, 'channelId' | 'brandId'>,
  defaultTimezone: string,
  nowMs: number,
): Promise<HeldAlerts> {
  return changeHolds(
    deps,
    sub,
    () => deps.store.subscriptions.setMutedUntil(sub.channelId, sub.brandId, null),
    defaultTimezone,
    nowMs,
  );
}
