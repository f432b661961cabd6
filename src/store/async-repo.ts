/**
 * Turns a repository written with better-sqlite3's synchronous statements into the
 * asynchronous interface every backend shares: each method runs through
 * `whenOutsideTransaction`, so it waits while another context's transaction holds the
 * connection and runs at once otherwise. Plain properties (an owner id) are copied.
 */
import type { Db } from './open-database.js';
import { whenOutsideTransaction } from './transaction.js';

/** The synchronous shape of an async repository interface: `Promise<R>` results become `R`. */
export type SyncOf<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

export function asyncRepo<T extends object>(db: Db, impl: SyncOf<T>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(impl)) {
    out[key] =
      typeof value === 'function'
        ? (...args: unknown[]) =>
            whenOutsideTransaction(db, () => (value as (...a: unknown[]) => unknown)(...args))
        : value;
  }
  return out as T;
}
