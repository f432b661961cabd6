/**
 * Pacing: about one message per second per channel, one slot per channel shared by every
 * relay of every process (channel-pacer.ts). A 429 holds the channel until its Retry-After
 * (settle-failure.ts); the row then waits here for that turn, its attempt not counted.
 */
import type { OutboxMessage } from '../../store/outbox-repo.js';
import type { RelayContext, RelaySettings } from './relay-context.js';

/** Reservations tried for one row before it goes back to the queue. */
const TURN_TRIES = 4;

/** A call is given this much of the lease; a row with less left goes back to the queue. */
const leaseReserve = (s: Pick<RelaySettings, 'leaseMs'>): number => Math.min(s.leaseMs / 2, 15_000);

/**
 * Waits for the channel's turn (at most one pace) and takes its slot, or hands the row
 * back, attempt not counted, when the turn is further off (a 429) or the lease would run
 * out first. Another relay may take the slot the moment it frees: then wait again, a few
 * times at most (a timer may also wake a millisecond early, and a clock whose sleep does
 * not advance time must not spin), then hand the row back for when the slot frees.
 */
export async function awaitTurn(ctx: RelayContext, row: OutboxMessage): Promise<boolean> {
  const { clock, settings } = ctx;
  const signal = ctx.stopSignal;
  const reserve = leaseReserve(settings);
  const leaseUntil = row.leaseUntilMs ?? 0;
  let ready = clock.now();
  for (let tries = 0; tries < TURN_TRIES; tries += 1) {
    const now = clock.now();
    if (signal?.aborted || leaseUntil - now < reserve) break;
    const turn = await ctx.pacer.reserve(row.channelId, now);
    if (turn.ok) return true;
    ready = turn.readyAt;
    if (ready - now > settings.paceMs || leaseUntil - ready < reserve) break;
    try {
      await clock.sleep(ready - now, signal);
    } catch {
      // stop() during the wait: the row waits for the next process or drain.
      break;
    }
  }
  await ctx.outbox.requeue(row.id, Math.max(clock.now(), ready));
  return false;
}
