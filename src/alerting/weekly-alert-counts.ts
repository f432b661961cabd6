/**
 * What a channel's alerts of one week came to, for its weekly summary: the alerts written
 * for it (the outbox's alert messages of the week, each grouped alert counted once) and
 * who acknowledged them (the audit log's Acknowledge clicks on those messages).
 *
 * The seam for alert states: once the store keeps an owner and a state per alert (assign,
 * resolve), `weeklyAlertCounts` fills `states` (resolved, still open, open by owner) from
 * them, and the summary says "opened, resolved, still open" instead of "sent". Nothing else
 * changes: the composer and the message already take `states`.
 */
import type { WeeklyAlertCounts } from '../alerts/compose-weekly.js';
import type { AlertHistoryQueries } from '../store/alert-history-queries.js';

export interface WeeklyAlertQuery {
  channelId: string;
  brandId: string;
  fromMs: number;
  toMs: number;
}

export async function weeklyAlertCounts(
  history: Pick<AlertHistoryQueries, 'channelAlertsBetween' | 'acknowledgementsSince'>,
  q: WeeklyAlertQuery,
): Promise<WeeklyAlertCounts> {
  const messages = await history.channelAlertsBetween(q.channelId, q.brandId, q.fromMs, q.toMs);
  const kinds = new Map<string, number>();
  let opened = 0;
  for (const m of messages) {
    opened += m.alertCount;
    for (const k of m.kinds) kinds.set(k, (kinds.get(k) ?? 0) + m.alertCount);
  }
  const posted = new Set(messages.map((m) => m.slackTs).filter((ts): ts is string => ts !== null));
  const acks = new Map<string, number>();
  // One click per person and message: a second click on the same message names the same owner.
  const seen = new Set<string>();
  for (const a of await history.acknowledgementsSince(q.fromMs)) {
    if (a.channelId !== q.channelId || !posted.has(a.messageTs)) continue;
    const once = `${a.userId} ${a.messageTs}`;
    if (seen.has(once)) continue;
    seen.add(once);
    acks.set(a.userId, (acks.get(a.userId) ?? 0) + 1);
  }
  const mostFirst = <K>(m: Map<K, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    opened,
    kinds: mostFirst(kinds).map(([k]) => k),
    acknowledgedBy: mostFirst(acks).map(([userId, count]) => ({ userId, count })),
  };
}
