/**
 * How the long-running parts of `serve` (the scheduler, work a command leaves running
 * after its reply) learn that the service stops, and how shutdown waits for them. The
 * service owns it and hands it to each part explicitly; nothing registers on the deps.
 *
 * Order, kept by startService: stop taking requests, let the acked ones finish, then
 * `stop()` (abort the signal, wait for every part), and only then close the database.
 */
import type { Logger } from './logger.js';

export interface ServiceLifecycle {
  /** Aborted when the service stops, after the requests in flight have finished. */
  readonly signal: AbortSignal;
  /**
   * Shutdown waits for `settled` before the database closes: the part's own end, which
   * it brings about when `signal` aborts. A rejection is logged, never rethrown.
   */
  waitFor(part: string, settled: Promise<unknown>): void;
}

/** The owner's side: only the service stops it. */
export interface OwnedServiceLifecycle extends ServiceLifecycle {
  /** Aborts the signal and resolves once every part handed to waitFor has settled. Idempotent. */
  stop(): Promise<void>;
}

export function createServiceLifecycle(logger: Pick<Logger, 'error'>): OwnedServiceLifecycle {
  const controller = new AbortController();
  const pending = new Set<Promise<void>>();
  let stopping: Promise<void> | undefined;
  return {
    signal: controller.signal,
    waitFor(part, settled) {
      const tracked: Promise<void> = settled
        .then(
          () => undefined,
          (err: unknown) => logger.error({ err, part }, `${part} failed while the service stopped`),
        )
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    stop() {
      stopping ??= (async () => {
        controller.abort(new Error('the service is stopping'));
        // A part may hand over more work while it stops (a last run); wait for that too.
        while (pending.size > 0) await Promise.all([...pending]);
      })();
      return stopping;
    },
  };
}

/** Runs `stop` once `signal` aborts (at once if it already has); settles when `stop` does. */
export function stopOnAbort(signal: AbortSignal, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  }).then(stop);
}
