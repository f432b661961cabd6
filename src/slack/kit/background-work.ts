/**
 * Work a command leaves running after it answered (the ideas refresh follows the
 * generation). The command's listener has returned by then, so the service's in-flight
 * drain does not wait for it; instead it runs under the service's lifecycle: its signal
 * aborts when the service stops, and shutdown waits for it to settle before the database
 * closes, so a poll never runs on against a closed API client.
 */
import type { Logger } from '../../logger.js';
import type { ServiceLifecycle } from '../../service-lifecycle.js';

export interface BackgroundWork {
  /**
   * Starts `work` with the service's stop signal; resolves when it ends. A failure is
   * logged, never thrown: nobody is waiting to be told.
   */
  run(work: (signal: AbortSignal) => Promise<unknown>): Promise<void>;
}

export function createBackgroundWork(
  lifecycle: ServiceLifecycle,
  logger: Pick<Logger, 'error'>,
): BackgroundWork {
  return {
    run(work) {
      // Started at once (the executor runs synchronously); a synchronous throw rejects.
      const done = new Promise<unknown>((resolve) => resolve(work(lifecycle.signal))).then(
        () => undefined,
        (err: unknown) => logger.error({ err }, 'background work failed'),
      );
      lifecycle.waitFor('background work', done);
      return done;
    },
  };
}
