/**
 * Ends holds that are over. Held alert messages of one channel and brand become one grouped
 * message (a new outbox row with its own dedupe key; the originals are marked as merged into
 * it), everything else simply becomes due. One transaction under SQLite's write lock, so two
 * relays releasing at once cannot both group the same rows.
 */
import { groupHeldMessages } from '../messages/held-alerts-message.js';
import type { OutboxMessage, OutboxRepo } from '../store/outbox-repo.js';
import type { RunInTransaction } from '../store/transaction.js';

interface ReleaseResult {
  /** Rows that became due as they were. */
  released: number;
  /** Held rows delivered inside a grouped message. */
  merged: number;
  /** Grouped messages created. */
  grouped: number;
}

function groupKey(channelId: string, brandId: string, members: readonly OutboxMessage[]): string {
  // node:crypto on first use: a run with nothing held never loads it.
  const hash = process
    .getBuiltinModule('node:crypto')
    .createHash('sha1')
    .update(
      members
        .map((m) => m.dedupeKey)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 20);
  return `held:${channelId}:${brandId}:${hash}`;
}

export function releaseHeldAlerts(
  transaction: RunInTransaction,
  outbox: OutboxRepo,
  nowMs: number,
): Promise<ReleaseResult> {
  return transaction(async () => {
    const due = (await outbox.listHeld())
      .filter((r) => r.holdUntilMs === null || r.holdUntilMs <= nowMs)
      .filter((r) => r.kind === 'alert' && r.brandId !== null)
      .sort((a, b) => a.id - b.id);
    const byTarget = new Map<string, OutboxMessage[]>();
    for (const r of due) {
      const k = `${r.channelId}\n${r.brandId}`;
      byTarget.set(k, [...(byTarget.get(k) ?? []), r]);
    }
    let merged = 0;
    let grouped = 0;
    for (const rows of byTarget.values()) {
      if (rows.length < 2) continue;
      for (const g of groupHeldMessages(rows.map((r) => r.payload))) {
        if (!g.message) continue;
        const members = g.members.map((i) => rows[i]!);
        const first = members[0]!;
        const { id } = await outbox.enqueue({
          dedupeKey: groupKey(first.channelId, first.brandId!, members),
          channelId: first.channelId,
          brandId: first.brandId,
          kind: 'alert',
          payload: {
            ...g.message,
            // What the merged alerts were about, for the alert's state once posted.
            alertSubjects: members.flatMap((m) => m.payload.alertSubjects ?? []),
          },
          nowMs,
        });
        for (const m of members) if (await outbox.markMerged(m.id, id, nowMs)) merged += 1;
        grouped += 1;
      }
    }
    return { released: await outbox.releaseHeld(nowMs), merged, grouped };
  });
}
