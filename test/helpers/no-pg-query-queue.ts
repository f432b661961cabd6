/**
 * Vitest setup file: a test file fails when it gave pg a statement on a connection that
 * was still running one (pg queues it and warns "Calling client.query() when the client is
 * already executing a query": deprecated, and gone in pg 9).
 *
 * pg's own warning comes once per process, and test files share their worker's process,
 * so this does not listen for it: it looks at each call itself, with the condition pg warns
 * on (a statement already queued on that connection). pg's Client is wrapped once per
 * process; each file (this setup runs before every file) points it at its own list, so the
 * file that queued is the one that fails.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

interface QueueWatch {
  /** The running file's list of queued statements. */
  seen: string[];
}

const WATCH = Symbol.for('visibility-bot.test.pg-query-queue');
type Watched = typeof globalThis & { [WATCH]?: QueueWatch };

function watch(): QueueWatch {
  const g = globalThis as Watched;
  const existing = g[WATCH];
  if (existing) return existing;
  const state: QueueWatch = { seen: [] };
  const proto = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
    _queryQueue?: unknown[];
    _queryable?: boolean;
    _ending?: boolean;
    pipeline?: boolean;
  };
  const query = proto.query;
  proto.query = function queued(this: typeof proto, ...args: unknown[]) {
    const queues = this._queryable !== false && !this._ending && !this.pipeline;
    if (queues && (this._queryQueue?.length ?? 0) > 0) {
      state.seen.push(new Error('statement queued behind another on one connection').stack ?? '');
    }
    return query.apply(this, args);
  };
  g[WATCH] = state;
  return state;
}

const state = watch();
beforeAll(() => {
  state.seen = [];
});
afterAll(() => {
  const seen = state.seen;
  state.seen = [];
  if (seen.length > 0) {
    throw new Error(
      `pg was given a statement on a connection that was still running one (run them one after another):\n${seen.join('\n')}`,
    );
  }
});
