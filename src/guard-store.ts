/**
 * The store as the process uses it: every repository call and transaction goes through
 * the database's health (database-health.ts), which refuses calls at once while the
 * database cannot be used and learns from each outcome. Built once, in app-deps.ts.
 */
import type { DatabaseHealth } from './database-health.js';
import type { Store } from './store/store.js';

/** The store's repositories (object-valued members), each listed: a repository added to Store must be guarded too. */
type RepoKey = {
  [K in keyof Store]-?: Store[K] extends (...args: never[]) => unknown
    ? never
    : Store[K] extends object
      ? K
      : never;
}[keyof Store];

const REPOSITORIES: Record<RepoKey, true> = {
  subscriptions: true,
  snoozes: true,
  channelDefaults: true,
  auditLog: true,
  pollObservations: true,
  healthFlags: true,
  citationState: true,
  channelDetectorState: true,
  crawlerHistory: true,
  handledRequests: true,
  alertHistory: true,
  alertStates: true,
  jobRuns: true,
  databaseSize: true,
  channelPace: true,
  modelCitationState: true,
  workspaceCharts: true,
};

function guardRepo<R extends object>(repo: R, health: Pick<DatabaseHealth, 'call'>): R {
  return new Proxy(repo, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        health.call(() => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/**
 * `store` with every repository call and transaction going through `health.call`. What
 * only one backend has (the SQLite handle, the Postgres pool) passes through untouched,
 * and so do ping() and close().
 */
export function guardStore<S extends Store>(store: S, health: Pick<DatabaseHealth, 'call'>): S {
  const repos = new Map<PropertyKey, object>();
  const transaction: Store['transaction'] = (fn) => health.call(() => store.transaction(fn));
  const outbox: Store['outbox'] = (options) => guardRepo(store.outbox(options), health);
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'transaction') return transaction;
      if (prop === 'outbox') return outbox;
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !(prop in REPOSITORIES) || typeof value !== 'object' || value === null)
        return value;
      let guarded = repos.get(prop);
      if (!guarded) {
        guarded = guardRepo(value, health);
        repos.set(prop, guarded);
      }
      return guarded;
    },
  });
}
