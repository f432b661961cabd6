/**
 * The service's lifecycle: stop() aborts the signal and resolves only once every part
 * handed to waitFor has settled (what keeps the database open until the scheduler and
 * background follow-ups are done); a part that fails while stopping is logged, not thrown.
 */
import { describe, expect, it } from 'vitest';
import { createServiceLifecycle, stopOnAbort } from '../src/service-lifecycle.js';

function recordingLogger() {
  const errors: Array<{ obj: unknown; msg: string }> = [];
  return {
    errors,
    logger: { error: (obj: unknown, msg: string) => void errors.push({ obj, msg }) } as never,
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('createServiceLifecycle', () => {
  it('aborts the signal on stop and waits for every part before resolving', async () => {
    const { logger } = recordingLogger();
    const lifecycle = createServiceLifecycle(logger);
    const events: string[] = [];
    const slow = deferred();
    lifecycle.waitFor(
      'slow part',
      stopOnAbort(lifecycle.signal, async () => {
        events.push('slow part stopping');
        await slow.promise;
        events.push('slow part stopped');
      }),
    );
    lifecycle.waitFor(
      'quick part',
      stopOnAbort(lifecycle.signal, async () => {
        events.push('quick part stopped');
      }),
    );
    expect(lifecycle.signal.aborted).toBe(false);
    expect(events).toEqual([]);

    let resolved = false;
    const stopping = lifecycle.stop().then(() => {
      resolved = true;
    });
    expect(lifecycle.signal.aborted).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(['slow part stopping', 'quick part stopped']);
    expect(resolved).toBe(false);

    slow.resolve();
    await stopping;
    expect(events).toEqual(['slow part stopping', 'quick part stopped', 'slow part stopped']);
  });

  it('also waits for work handed over while it stops, and stop() is idempotent', async () => {
    const { logger } = recordingLogger();
    const lifecycle = createServiceLifecycle(logger);
    const late = deferred();
    const events: string[] = [];
    lifecycle.waitFor(
      'scheduler',
      stopOnAbort(lifecycle.signal, async () => {
        // A part that, while it stops, leaves one more piece of work to finish.
        lifecycle.waitFor(
          'last run',
          late.promise.then(() => events.push('last run done')),
        );
      }),
    );
    const first = lifecycle.stop();
    const second = lifecycle.stop();
    expect(second).toBe(first);
    let resolved = false;
    void first.then(() => {
      resolved = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    late.resolve();
    await first;
    expect(events).toEqual(['last run done']);
  });

  it('logs a part that fails while stopping, by name, and still resolves', async () => {
    const { logger, errors } = recordingLogger();
    const lifecycle = createServiceLifecycle(logger);
    lifecycle.waitFor(
      'the scheduler',
      stopOnAbort(lifecycle.signal, async () => {
        throw new Error('relay would not stop');
      }),
    );
    await expect(lifecycle.stop()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toBe('the scheduler failed while the service stopped');
    expect((errors[0]?.obj as { err?: Error } | undefined)?.err?.message).toBe('relay would not stop');
  });
});

describe('stopOnAbort', () => {
  it('runs stop only once the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    let stops = 0;
    const settled = stopOnAbort(controller.signal, async () => {
      stops += 1;
    });
    await new Promise((r) => setImmediate(r));
    expect(stops).toBe(0);
    controller.abort();
    await settled;
    expect(stops).toBe(1);

    await stopOnAbort(controller.signal, async () => {
      stops += 1;
    });
    expect(stops).toBe(2);
  });
});
