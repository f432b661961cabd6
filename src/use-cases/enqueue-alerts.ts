/**
 * One channel's alerts of one run become outbox rows: one grouped message per brand
 * (docs/alert-semantics.md "one message per brand per channel per run"), except that alerts held until
 * different times (a snoozed kind waits longer than the rest) go in separate messages, so
 * nothing waits for a snooze it is not part of. The relay merges held messages of a brand
 * into one when their holds end. The dedupe key is the channel plus the group key, which
 * names exactly the alerts inside, so writing the same alerts again is a no-op.
 *
 * The digest writes its rows through the same `enqueueForChannel`, so every message to a
 * subscription's channel is keyed, and can be found in the channel's history, one way.
 */
import { alertSubject } from '../alerts/alert-subject.js';
import { groupAlerts } from '../alerts/group-alerts.js';
import type { Alert, AlertNote } from '../alerts/types.js';
import { buildAlertMessage } from '../messages/alert-message.js';
import type { NewOutboxMessage, OutboxKind, OutboxPayload } from '../store/outbox-repo.js';
import type { SnoozesRepo } from '../store/snoozes-repo.js';
import type { Subscription } from '../store/subscriptions-repo.js';
import { alertHoldUntil } from './alert-hold.js';

interface ChannelMessage {
  kind: OutboxKind;
  key: string;
  /** The message, carrying `dedupeKey`. */
  build(dedupeKey: string): OutboxPayload;
  /** Held (mute, snooze, quiet hours) until then; null or absent: due now. */
  holdUntilMs?: number | null;
  /** Not to be posted before then (a digest prepared ahead); null or absent: due now. */
  sendAfterMs?: number | null;
}

/** The outbox dedupe key of `key` in `channelId`. */
export const channelDedupeKey = (channelId: string, key: string): string => `${channelId}:${key}`;

/**
 * One outbox row for a subscription's channel, carrying its dedupe key (so a post whose
 * answer was lost can be found in the channel's history). True when a row was written
 * (false: one with this dedupe key already exists).
 */
export async function enqueueForChannel(
  outbox: MessageWriter,
  sub: Pick<Subscription, 'channelId' | 'brandId'>,
  message: ChannelMessage,
  nowMs: number,
): Promise<boolean> {
  const dedupeKey = channelDedupeKey(sub.channelId, message.key);
  const { created } = await outbox.enqueue({
    dedupeKey,
    channelId: sub.channelId,
    brandId: sub.brandId,
    kind: message.kind,
    payload: message.build(dedupeKey),
    nowMs,
    holdUntilMs: message.holdUntilMs ?? null,
    sendAfterMs: message.sendAfterMs ?? null,
  });
  return created;
}

/**
 * Where messages are written: the outbox (OutboxRepo.enqueue), or a brand batch's writer
 * that writes them with the batch's other brands' (src/jobs/brand-batch.ts). `created`:
 * false when a message with this dedupe key exists already.
 */
export interface MessageWriter {
  enqueue(m: NewOutboxMessage): Promise<{ created: boolean }>;
}

export interface AlertSink {
  outbox: MessageWriter;
  snoozes: Pick<SnoozesRepo, 'active'>;
  /** DEFAULT_TIMEZONE, for subscriptions that set none (quiet hours are local time). */
  defaultTimezone: string;
}

export interface EnqueueCounts {
  alerts: number;
  notes: number;
  /** Outbox rows written (a row that already existed is not counted). */
  messages: number;
  /** Of those, rows held for a mute, a snooze or quiet hours. */
  held: number;
}

export const noCounts = (): EnqueueCounts => ({ alerts: 0, notes: 0, messages: 0, held: 0 });

export function addCounts(into: EnqueueCounts, more: EnqueueCounts): EnqueueCounts {
  into.alerts += more.alerts;
  into.notes += more.notes;
  into.messages += more.messages;
  into.held += more.held;
  return into;
}

export async function enqueueAlerts(
  sink: AlertSink,
  sub: Subscription,
  alerts: readonly Alert[],
  notes: readonly AlertNote[],
  nowMs: number,
): Promise<EnqueueCounts> {
  const counts = noCounts();
  if (alerts.length === 0 && notes.length === 0) return counts;
  const snoozed = await sink.snoozes.active(sub.channelId, sub.brandId, nowMs);
  const base = {
    mutedUntilMs: sub.mutedUntilMs,
    quietHours: sub.settings.quietHours,
    timeZone: sub.settings.timezone ?? sink.defaultTimezone,
  };
  const byHold = new Map<number | null, { alerts: Alert[]; notes: AlertNote[] }>();
  const part = (hold: number | null) => {
    let p = byHold.get(hold);
    if (!p) {
      p = { alerts: [], notes: [] };
      byHold.set(hold, p);
    }
    return p;
  };
  for (const a of alerts) {
    part(alertHoldUntil(nowMs, { ...base, snoozedUntilMs: snoozed.get(a.kind) })).alerts.push(a);
  }
  // Notes are not a kind of alert (nothing snoozes them), but a mute or quiet hours still apply.
  for (const n of notes) part(alertHoldUntil(nowMs, base)).notes.push(n);

  for (const [hold, p] of byHold) {
    for (const group of groupAlerts(p.alerts, p.notes)) {
      const created = await enqueueForChannel(
        sink.outbox,
        sub,
        {
          kind: 'alert',
          key: group.key,
          build: (dedupeKey) => ({
            ...buildAlertMessage(group, { dedupeKey }),
            alertSubjects: group.alerts.map(alertSubject),
          }),
          holdUntilMs: hold,
        },
        nowMs,
      );
      if (!created) continue;
      counts.messages += 1;
      counts.alerts += group.alerts.length;
      counts.notes += group.notes.length;
      if (hold !== null) counts.held += 1;
    }
  }
  return counts;
}
