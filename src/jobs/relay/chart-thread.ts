import type { OutboxMessage, OutboxRepo } from '../../store/outbox-repo.js';

/** Where a chart row goes: a thread (its ts), or the channel itself (ts undefined). */
type ChartThread = { ts: string | undefined } | 'wait' | 'lost';

/**
 * Where a chart row goes: the thread of the row it follows once that one is sent; 'wait'
 * while it is not; 'lost' when it failed (the chart alone would make no sense).
 */
export async function chartThread(outbox: OutboxRepo, row: OutboxMessage): Promise<ChartThread> {
  const key = row.payload.chart?.afterDedupeKey;
  const parent = key ? await outbox.getByDedupeKey(key) : null;
  // No parent (never had one, or purged long after it was sent): the channel itself.
  if (!parent) return { ts: undefined };
  if (parent.status === 'sent') return { ts: parent.slackTs ?? undefined };
  return parent.status === 'failed' ? 'lost' : 'wait';
}
