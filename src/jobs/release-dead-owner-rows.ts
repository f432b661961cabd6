/**
 * Outbox rows left in 'sending' by a process of this host that is gone (run-job killed
 * while posting). Its lease would make them wait a minute; the process cannot come back,
 * so they are handed back now, marked unconfirmed: the relay looks for each one in the
 * channel history before posting, and posts only what Slack never accepted.
 */
import type { OutboxRepo } from '../store/outbox-repo.js';
import { UNCONFIRMED } from './outbox-relay.js';
import { isDeadLocalOwner } from './process-owner.js';

export async function releaseDeadOwnerRows(
  outbox: Pick<OutboxRepo, 'listSending' | 'markRetry'>,
  nowMs: number,
  isDead: (owner: string | null) => boolean = isDeadLocalOwner,
): Promise<number> {
  let released = 0;
  for (const row of await outbox.listSending()) {
    if (!isDead(row.leaseOwner)) continue;
    if (await outbox.markRetry(row.id, `${UNCONFIRMED}the process that was posting it stopped`, nowMs))
      released += 1;
  }
  return released;
}
