/**
 * Drains the outbox until nothing is due soon: what `run-job` does after a job (the
 * scheduler's relay runs on its own loop instead). A row put back by a 429 or a pacing
 * wait is waited for when it is due within `maxWaitMs`, so `run-job` delivers it after
 * Retry-After instead of exiting with it undelivered; a row backing off for longer is left
 * for the next run or `serve`.
 */
import type { Clock } from '../clock.js';
import type { OutboxRepo, OutboxStatus } from '../store/outbox-repo.js';
import type { DrainResult, OutboxRelay } from './outbox-relay.js';

export interface Delivery extends DrainResult {
  /** Rows still pending when it stopped waiting, but for those written to go out later. */
  pending: number;
}

export function emptyDelivery(): Delivery {
  return { sent: 0, retried: 0, failed: 0, paused: 0, held: 0, recovered: 0, merged: 0, pending: 0 };
}

export function addDelivery(into: Delivery, more: DrainResult): Delivery {
  for (const k of ['sent', 'retried', 'failed', 'paused', 'held', 'recovered', 'merged'] as const)
    into[k] += more[k];
  return into;
}

/**
 * Nothing a drain would act on: no row to post, none held (a hold may have ended) and none
 * being sent (a crashed delivery is recovered).
 */
const nothingToDeliver = (counts: Readonly<Record<OutboxStatus, number>>) =>
  counts.pending === 0 && counts.held === 0 && counts.sending === 0;

export async function deliverOutbox(
  relay: Pick<OutboxRelay, 'drainOnce'>,
  outbox: Pick<OutboxRepo, 'nextPendingAt' | 'counts' | 'countScheduled'>,
  clock: Clock,
  o: { maxWaitMs: number; signal?: AbortSignal | undefined },
): Promise<Delivery> {
  // After a job that wrote nothing (most runs of most jobs), one read instead of a drain's
  // half-dozen statements; its result would be the same.
  if (nothingToDeliver(await outbox.counts())) return emptyDelivery();
  const total = emptyDelivery();
  const deadline = clock.now() + o.maxWaitMs;
  for (;;) {
    addDelivery(total, await relay.drainOnce());
    const next = await outbox.nextPendingAt();
    if (next === null || next > deadline || o.signal?.aborted) break;
    // A floor keeps a row that is due "now" but deferred (its channel's pace) from spinning.
    await clock.sleep(Math.max(next - clock.now(), 20), o.signal).catch(() => {});
  }
  // A digest prepared ahead waits for its time, not for a retry.
  total.pending = (await outbox.counts()).pending - (await outbox.countScheduled(clock.now()));
  return total;
}
