/**
 * Which digest is due now (docs/alert-semantics.md: daily at the subscription's time in its time zone).
 * A digest missed while the bot was down is sent once when it is back, marked late; after
 * several missed days only the latest one is sent, since older ones are stale.
 */
import { addDays, minutesOf, zonedParts, zonedTimeToUtcMs } from './zoned-time.js';

export interface DigestDue {
  /** Local date the digest is for. */
  date: string;
  /** When it was scheduled (epoch ms). */
  scheduledAtMs: number;
  late: boolean;
}

/** A digest sent within this long after its time is on time. */
export const DIGEST_GRACE_MS = 30 * 60_000;

export function digestDue(
  nowMs: number,
  digestTime: string,
  timeZone: string,
  lastSentDate: string | null,
  /** The subscription's creation time: a digest scheduled before it is never due. */
  notBeforeMs = 0,
): DigestDue | null {
  const { date, minutes } = zonedParts(nowMs, timeZone);
  const dueDate = minutes >= minutesOf(digestTime) ? date : addDays(date, -1);
  if (lastSentDate !== null && lastSentDate >= dueDate) return null;
  const scheduledAtMs = zonedTimeToUtcMs(dueDate, digestTime, timeZone);
  if (scheduledAtMs < notBeforeMs) return null;
  return { date: dueDate, scheduledAtMs, late: nowMs - scheduledAtMs > DIGEST_GRACE_MS };
}
