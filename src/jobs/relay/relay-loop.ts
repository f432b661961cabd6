import { backoffDelay } from '../../backoff-delay.js';
import type { Clock } from '../../clock.js';
import type { DatabaseHealth } from '../../database-health.js';
import type { DeliveryNudge } from '../../delivery-nudge.js';
import type { Logger } from '../../logger.js';
import { isDatabaseUnavailable } from '../../store/database-unavailable.js';
import type { OutboxRepo } from '../../store/outbox-repo.js';
import type { DrainResult } from './drain-outbox.js';

/** The loop's pause while the database cannot be used: 1 s, doubling, at most a minute. */
const OUTAGE_BACKOFF = { baseDelayMs: 1000, maxDelayMs: 60_000 };

interface RelayLoopDeps {
  drainOnce(): Promise<DrainResult>;
  outbox: Pick<OutboxRepo, 'nextPendingAt'>;
  clock: Clock;
  logger: Logger;
  database?: Pick<DatabaseHealth, 'onChange'> | undefined;
  deliveryNudge?: DeliveryNudge | undefined;
}

/**
 * Drains every `intervalMs` until `signal` aborts; resolves then. Between drains it waits
 * at most until the next row is due (a digest written ahead goes out at its time). A nudge
 * ends the wait (held alerts just released go out now; one during a drain means another
 * drain right after it), and so does the database answering again after an outage. While
 * the database cannot be used the loop backs off (1 s doubling to a minute) without
 * logging each try: the outage is logged once where it is noticed.
 */
export async function runRelayLoop(
  deps: RelayLoopDeps,
  intervalMs: number,
  signal: AbortSignal,
): Promise<void> {
  const { clock, logger } = deps;
  let nudged = false;
  let databaseBack = false;
  let wake = new AbortController();
  const stopNudges = deps.deliveryNudge?.onNudge(() => {
    nudged = true;
    wake.abort();
  });
  const stopWatching = deps.database?.onChange((s) => {
    if (!s.reachable) return;
    databaseBack = true;
    wake.abort();
  });
  try {
    let refused = 0;
    while (!signal.aborted) {
      nudged = false;
      databaseBack = false;
      let wait = intervalMs;
      try {
        const r = await deps.drainOnce();
        if (r.sent + r.failed + r.paused + r.recovered > 0) logger.debug({ ...r }, 'outbox drained');
        // Wake for the next row due before the interval ends (a digest at its time); the
        // floor keeps a row deferred by its channel's pace from spinning the loop.
        const next = await deps.outbox.nextPendingAt();
        if (next !== null) wait = Math.min(intervalMs, Math.max(next - clock.now(), 20));
        refused = 0;
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          wait = backoffDelay(refused++, OUTAGE_BACKOFF);
          logger.debug({ retryInMs: wait }, 'outbox drain waits: the database cannot be used');
        } else logger.error({ err }, 'outbox drain failed');
      }
      // A nudge while the database refuses waits out the back-off like everything else.
      if ((nudged && refused === 0) || (databaseBack && refused > 0)) continue;
      if (wake.signal.aborted) wake = new AbortController();
      await clock.sleep(wait, AbortSignal.any([signal, wake.signal])).catch(() => {});
    }
  } finally {
    stopNudges?.();
    stopWatching?.();
  }
}
