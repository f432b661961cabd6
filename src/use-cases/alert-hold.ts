/**
 * Until when an alert waits before it is delivered (docs/alert-semantics.md: held alerts are delivered
 * when a mute or quiet hours end, not dropped): the channel's mute for the brand, a snooze
 * of that kind of alert, and quiet hours, whichever ends last. Quiet hours are checked at
 * the moment the other holds end, so a mute that ends at 23:00 inside 22:00–07:00 quiet
 * hours waits until 07:00.
 */
import type { QuietHours } from '../alerts/alert-settings.js';
import { quietHoursEndMs } from '../alerts/quiet-hours.js';

interface HoldInput {
  mutedUntilMs: number | null;
  snoozedUntilMs?: number | null | undefined;
  quietHours: QuietHours | null;
  timeZone: string;
}

/** Epoch ms to hold until, or null to deliver now. */
export function alertHoldUntil(nowMs: number, o: HoldInput): number | null {
  let until = Math.max(nowMs, o.mutedUntilMs ?? 0, o.snoozedUntilMs ?? 0);
  const quietEnd = quietHoursEndMs(until, o.quietHours, o.timeZone);
  if (quietEnd !== null) until = quietEnd;
  return until > nowMs ? until : null;
}
