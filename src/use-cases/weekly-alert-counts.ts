/**
 * What a channel's alerts of one week came to, for its weekly summary: the alerts written
 * for it (the outbox's alert messages of the week, each grouped alert counted once) and
 * who acknowledged them (the audit log's Acknowledge clicks on those messages).
 *
 * With the alert states (who owns an alert, who resolved it), `states` says how many of
 * the channel's alerts for the brand were resolved in the week, how many are still open at
 * its end, and whose they are; every alert of a grouped message counts, as in `opened`.
 */
import type { WeeklyAlertCounts } from '../alerts/compose-weekly.js';
import type { AlertHistoryQueries } from '../store/alert-history-queries.js';
import type { AlertState, AlertStatesRepo } from '../store/alert-states-repo.js';

interface WeeklyAlertQuery {
  channelId: string;
  brandId: string;
  fromMs: number;
  toMs: number;
}

/** Resolved in the week, still open at its end, and the open ones by owner, most first. */
async function statesOf(
  states: Pick<AlertStatesRepo, 'listResolved' | 'listOpen'>,
  q: WeeklyAlertQuery,
): Promise<NonNullable<WeeklyAlertCounts['states']>> {
  const ours = (a: AlertState) => a.brandId === q.brandId;
  const alerts = (xs: readonly AlertState[]) => xs.reduce((n, a) => n + a.alertCount, 0);
  const resolved = (await states.listResolved(q.fromMs, q.toMs, q.channelId)).filter(ours);
  const open = (await states.listOpen([q.brandId], q.channelId)).filter(
    (a) => ours(a) && a.postedAtMs < q.toMs,
  );
  const byOwner = new Map<string | null, number>();
  for (const a of open) byOwner.set(a.assigneeId, (byOwner.get(a.assigneeId) ?? 0) + a.alertCount);
  return {
    resolved: alerts(resolved),
    stillOpen: alerts(open),
    openByOwner: [...byOwner].sort((a, b) => b[1] - a[1]).map(([userId, count]) => ({ userId, count })),
  };
}

export async function weeklyAlertCounts(
  history: Pick<AlertHistoryQueries, 'channelAlertsBetween' | 'acknowledgementsSince'>,
  q: WeeklyAlertQuery,
  states?: Pick<AlertStatesRepo, 'listResolved' | 'listOpen'>,
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
    ...(states ? { states: await statesOf(states, q) } : {}),
  };
}
