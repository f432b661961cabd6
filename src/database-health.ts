/**
 * Whether the database can be used right now, as this process sees it. Every store call
 * goes through `call` (guard-store.ts wraps the store so), the probe is the backend's own
 * (a query on Postgres, sqlite-write-probe.ts on SQLite).
 *
 * - Every store call is observed. A call that fails because the database is unreachable,
 *   locked or too slow (store/database-unavailable.ts) turns the state to "down", logged
 *   once; from then on calls fail at once with a DatabaseUnavailableError instead of each
 *   waiting out a timeout (a command must be answered within Slack's 3 s, and a blocked
 *   SQLite busy wait holds the whole event loop).
 * - Only a probe turns it "up" again: a trivial query on Postgres, taking (and giving back
 *   at once) the write lock on SQLite, where reads go on while another connection holds
 *   the file. While down, a call probes first when the last probe is `retryEveryMs` old,
 *   and a timer probes as often meanwhile, so the jobs resume and /readyz turns green
 *   without waiting for traffic.
 * - Writes that must not be lost but can wait (an audit entry of a change the service
 *   already made, a handled Slack request) are owed (`owe`) and written, in order, as soon
 *   as the database answers again.
 *
 * Deadlines and the probe's pace are real time (I/O, not the product's clock, which tests
 * move by hand); the times reported (`since`) are the product's clock.
 */
import { type Clock, monotonicMs } from './clock.js';
import type { Logger } from './logger.js';
import {
  asDatabaseUnavailable,
  type DatabaseUnavailableCode,
  databaseUnavailable,
  isDatabaseUnavailable,
} from './store/database-unavailable.js';
import type { StoreBackend } from './store/store.js';

export interface DatabaseHealthSnapshot {
  backend: StoreBackend;
  reachable: boolean;
  /** ISO time the database was last found unreachable, or answering again; null: answering since start. */
  since: string | null;
  /** Why it cannot be used; null while it can. */
  reason: DatabaseUnavailableCode | null;
  /** How long it has been unusable; 0 while it is usable. */
  downForSeconds: number;
}

export interface DatabaseHealth {
  snapshot(): DatabaseHealthSnapshot;
  /** Probes now (one probe at a time, bounded) and returns the state: /readyz. */
  check(): Promise<DatabaseHealthSnapshot>;
  /**
   * Resolves when the database may be used (while down: when a probe due now finds it
   * back); rejects with a DatabaseUnavailableError otherwise, at once.
   */
  available(): Promise<void>;
  /** Runs one database call: refused at once while down; an outage it meets turns the state down. */
  call<T>(fn: () => Promise<T> | T, options?: { deadlineMs?: number }): Promise<T>;
  /** Runs `task` once the database answers again (at once when it does), in order; `what` names it in logs. */
  owe(what: string, task: () => Promise<unknown>): void;
  /** Told on every change of state; returns the unsubscribe. */
  onChange(listener: (snapshot: DatabaseHealthSnapshot) => void): () => void;
  /** Stops the recovery probes. */
  close(): void;
}

interface DatabaseHealthOptions {
  backend: StoreBackend;
  /** Resolves when the database takes work now; rejects (or hangs) otherwise. */
  probe: () => Promise<void>;
  clock: Clock;
  logger: Logger;
  /** A probe not answered within this fails as `db_timeout`; default 1000 ms. */
  probeTimeoutMs?: number;
  /** While down, at most one probe this often; default 1000 ms. */
  retryEveryMs?: number;
  /** Owed writes kept at most (the oldest is dropped, and logged, beyond); default 1000. */
  maxOwed?: number;
  /** Real time in ms (monotonic); tests may pass their own. */
  elapsedMs?: () => number;
}

interface Owed {
  what: string;
  task: () => Promise<unknown>;
}

const DEFAULTS = { probeTimeoutMs: 1000, retryEveryMs: 1000, maxOwed: 1000 };

/** `work`, or a `db_timeout` after `ms` of real time (the work itself goes on). */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(databaseUnavailable('db_timeout', `${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Writes owed while the database is down, written in order once it answers; beyond
 * `maxOwed` the oldest is dropped (and logged).
 */
function createOwedWrites(o: {
  maxOwed: number;
  logger: Logger;
  isUp: () => boolean;
  write: (task: () => Promise<unknown>) => Promise<unknown>;
}) {
  const owed: Owed[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      while (o.isUp() && owed.length > 0) {
        const next = owed[0]!;
        try {
          await o.write(next.task);
        } catch (err) {
          if (isDatabaseUnavailable(err)) return;
          o.logger.error({ err, what: next.what }, 'an owed database write failed; dropped');
        }
        owed.shift();
      }
    } finally {
      flushing = false;
    }
  }

  return {
    flush,
    size: () => owed.length,
    owe(what: string, task: () => Promise<unknown>): void {
      owed.push({ what, task });
      if (owed.length > o.maxOwed) {
        const dropped = owed.shift()!;
        o.logger.error(
          { what: dropped.what, maxOwed: o.maxOwed },
          'too many database writes owed: the oldest is dropped',
        );
      }
      if (o.isUp()) void flush();
    },
  };
}

/** Listeners told of every change; one that throws is logged and the others still hear. */
function createListeners(logger: Logger) {
  const listeners = new Set<(s: DatabaseHealthSnapshot) => void>();
  return {
    add(listener: (s: DatabaseHealthSnapshot) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tell(s: DatabaseHealthSnapshot): void {
      for (const l of listeners) {
        try {
          l(s);
        } catch (err) {
          logger.warn({ err }, 'a database health listener failed');
        }
      }
    },
  };
}

/**
 * One store call, observed: bounded by `deadlineMs` when given; an outage it meets is
 * reported to `onOutage` and rethrown as the DatabaseUnavailableError, any other error as is.
 */
function observed<T>(
  fn: () => Promise<T> | T,
  deadlineMs: number | undefined,
  onOutage: (code: DatabaseUnavailableCode, err: unknown) => void,
): Promise<T> {
  let work: Promise<T>;
  try {
    work = Promise.resolve(fn());
  } catch (err) {
    work = Promise.reject(err);
  }
  if (deadlineMs !== undefined) work = withDeadline(work, deadlineMs, 'a call');
  return work.catch((err: unknown) => {
    const outage = asDatabaseUnavailable(err);
    if (!outage) throw err;
    onOutage(outage.code, err);
    throw outage;
  });
}

// Long by design: the up/down state and its probing, short named functions over the same few
// variables; the owed writes, the listeners and the observing of a call are apart above.
export function createDatabaseHealth(o: DatabaseHealthOptions): DatabaseHealth {
  const probeTimeoutMs = o.probeTimeoutMs ?? DEFAULTS.probeTimeoutMs;
  const retryEveryMs = o.retryEveryMs ?? DEFAULTS.retryEveryMs;
  const maxOwed = o.maxOwed ?? DEFAULTS.maxOwed;
  const elapsed = o.elapsedMs ?? monotonicMs;
  const logger = o.logger.child({ component: 'database-health' });
  const listeners = createListeners(logger);

  let up = true;
  let reason: DatabaseUnavailableCode | null = null;
  /** Product clock, for what is reported. */
  let sinceMs: number | null = null;
  /** Real time the state last turned up: a failure of a call started before it is old news. */
  let upAt = Number.NEGATIVE_INFINITY;
  let lastProbeAt = Number.NEGATIVE_INFINITY;
  let probing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const owed = createOwedWrites({ maxOwed, logger, isUp: () => up, write: (task) => call(task) });

  const snapshot = (): DatabaseHealthSnapshot => ({
    backend: o.backend,
    reachable: up,
    since: sinceMs === null ? null : new Date(sinceMs).toISOString(),
    reason,
    downForSeconds: up || sinceMs === null ? 0 : Math.max(0, Math.round((o.clock.now() - sinceMs) / 1000)),
  });

  const tell = () => listeners.tell(snapshot());

  function watch(): void {
    if (closed || up || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void check().finally(watch);
    }, retryEveryMs);
    timer.unref();
  }

  function markDown(code: DatabaseUnavailableCode, err: unknown, startedAt: number): void {
    if (!up || startedAt < upAt) return;
    up = false;
    reason = code;
    sinceMs = o.clock.now();
    // The failure is as good as a probe: the next one is due a retry interval from now.
    lastProbeAt = elapsed();
    logger.warn(
      { code, err },
      'the database cannot be used right now: commands answer that nothing was changed, jobs wait; retrying',
    );
    tell();
    watch();
  }

  function markUp(): void {
    if (up) return;
    const downForMs = sinceMs === null ? 0 : o.clock.now() - sinceMs;
    up = true;
    reason = null;
    sinceMs = o.clock.now();
    upAt = elapsed();
    logger.info({ downForMs, owed: owed.size() }, 'the database answers again: jobs resume');
    tell();
    void owed.flush();
  }

  function check(): Promise<DatabaseHealthSnapshot> {
    probing ??= (async () => {
      lastProbeAt = elapsed();
      const startedAt = lastProbeAt;
      try {
        await withDeadline(Promise.resolve().then(o.probe), probeTimeoutMs, 'a probe');
        markUp();
      } catch (err) {
        const outage = asDatabaseUnavailable(err);
        // A probe that fails any other way still says the database cannot be used.
        markDown(outage?.code ?? 'db_unreachable', err, startedAt);
      }
    })().finally(() => {
      probing = null;
    });
    return probing.then(snapshot);
  }

  function refusal(): Error {
    return databaseUnavailable(reason ?? 'db_unreachable', 'not tried again until a probe finds it usable');
  }

  async function available(): Promise<void> {
    if (up) return;
    if (probing || elapsed() - lastProbeAt >= retryEveryMs) await check();
    if (!up) throw refusal();
  }

  function observe<T>(fn: () => Promise<T> | T, deadlineMs: number | undefined): Promise<T> {
    const startedAt = elapsed();
    return observed(fn, deadlineMs, (code, err) => markDown(code, err, startedAt));
  }

  function call<T>(fn: () => Promise<T> | T, options: { deadlineMs?: number } = {}): Promise<T> {
    // Up: the call starts now, in the caller's turn (SQLite statements keep their order).
    if (up) return observe(fn, options.deadlineMs);
    return available().then(() => observe(fn, options.deadlineMs));
  }

  return {
    snapshot,
    check,
    available,
    call,
    owe: owed.owe,
    onChange: listeners.add,
    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
