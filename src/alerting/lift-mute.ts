/**
 * `unmute` before the mute ran out: the alert messages it was holding get the hold they
 * would have had without it (quiet hours, a snooze of their kind still apply), so most are
 * released at once and the relay delivers them grouped at its next drain, instead of
 * waiting for the old end of the mute.
 */
import type { Db } from '../store/open-database.js';
import { createOutboxRepo } from '../store/outbox-repo.js';
import { createSnoozesRepo } from '../store/snoozes-repo.js';
import { createSubscriptionsRepo, type Subscription } from '../store/subscriptions-repo.js';
import { transaction } from '../store/transaction.js';
import { alertHoldUntil } from './alert-hold.js';

/** The alert kinds a message holds, as the alert builder records them in its metadata. */
function kindsOf(payload: { metadata?: { event_payload: Record<string, unknown> } }): string[] {
  const kinds = payload.metadata?.event_payload['kinds'];
  return typeof kinds === 'string' && kinds !== '' ? kinds.split(',') : [];
}

export function liftMute(
  db: Db,
  sub: Subscription,
  defaultTimezone: string,
  nowMs: number,
): { released: number } {
  const outbox = createOutboxRepo(db);
  const snoozed = createSnoozesRepo(db).active(sub.channelId, sub.brandId, nowMs);
  const base = {
    mutedUntilMs: null,
    quietHours: sub.settings.quietHours,
    timeZone: sub.settings.timezone ?? defaultTimezone,
  };
  return transaction(db, () => {
    createSubscriptionsRepo(db).setMutedUntil(sub.channelId, sub.brandId, null);
    let released = 0;
    for (const row of outbox.listHeld(sub.channelId)) {
      if (row.brandId !== sub.brandId || row.kind !== 'alert') continue;
      const kinds = kindsOf(row.payload);
      const holds = (kinds.length > 0 ? kinds : [undefined]).map(
        (k) =>
          alertHoldUntil(nowMs, { ...base, snoozedUntilMs: k === undefined ? null : snoozed.get(k) }) ??
          nowMs,
      );
      const until = Math.max(...holds);
      if (outbox.rehold(row.id, until) && until <= nowMs) released += 1;
    }
    return { released };
  });
}
