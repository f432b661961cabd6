/**
 * Work Slack already got its ack for (the command runs after ack()), counted so a
 * graceful shutdown can wait for it, for a bounded time, before closing the database.
 */
export interface InFlight {
  track<T>(work: Promise<T>): Promise<T>;
  readonly size: number;
  /** Resolves true when everything finished, false when `timeoutMs` ran out first. */
  drain(timeoutMs: number): Promise<boolean>;
}

export function createInFlight(): InFlight {
  const pending = new Set<Promise<unknown>>();
  return {
    track(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
      return work;
    },
    get size() {
      return pending.size;
    },
    async drain(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const all = (async () => {
        // New work may start while we wait (a command's follow-up): loop until none is left.
        while (pending.size > 0) await Promise.all(pending);
        return true as const;
      })();
      try {
        return await Promise.race([all, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
