/**
 * What every repository is built from, whatever the backend: where to run a statement (the
 * caller's open transaction, else the database), the few SQL pieces that differ between
 * SQLite and Postgres, the transaction (for a repository method that must read and then
 * write as one), the clock job runs are stamped with, and `prepare` for the statements the
 * jobs run once per brand.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database, StoreDb } from './database.js';
import type { SqlDialect } from './sql-dialect.js';
import { createTransaction, currentExecutor, type RunInTransaction } from './transaction-scope.js';

export interface RepoContext {
  /** Where a statement runs now: the caller's open transaction on this database, else the database. */
  db(): Kysely<Database>;
  readonly sql: SqlDialect;
  readonly transaction: RunInTransaction;
  readonly clock: Clock;
  /**
   * A statement written with the query builder once and compiled once, then run with each
   * call's values where the caller is (as `db()`). Building and compiling a statement costs
   * the builder about 50 µs, several times what SQLite takes to run it: a jobs run over
   * 1,000 brands runs some 30,000 statements. `build` receives its parameters as stand-ins
   * and must pass each one as a value (the statement's shape may not depend on them).
   */
  prepare<A extends unknown[], R>(
    build: (db: Kysely<Database>, ...params: A) => Compilable<R>,
  ): Prepared<A, R>;
}

/** A prepared statement: the result of one run with `params` as its values. */
export type Prepared<A extends unknown[], R> = (...params: A) => Promise<QueryResult<R>>;

/** Stands for the build function's parameter `index` in the compiled statement. */
class Slot {
  constructor(readonly index: number) {}
}

function prepare<A extends unknown[], R>(
  db: () => Kysely<Database>,
  build: (db: Kysely<Database>, ...params: A) => Compilable<R>,
): Prepared<A, R> {
  let compiled: CompiledQuery<R> | undefined;
  return async (...params) => {
    if (!compiled) {
      const slots = Array.from({ length: build.length - 1 }, (_, i) => new Slot(i));
      compiled = build(db(), ...(slots as A)).compile();
      const used = new Set(compiled.parameters.filter((p) => p instanceof Slot));
      const lost = slots.find((s) => !used.has(s));
      if (lost)
        throw new Error(`A prepared statement uses its parameter ${lost.index + 1} other than as a value.`);
    }
    const c = compiled;
    const parameters = c.parameters.map((p) => (p instanceof Slot ? params[p.index] : p));
    return db().executeQuery<R>({ ...c, parameters });
  };
}

export function repoContext(db: StoreDb, dialect: SqlDialect, clock: Clock): RepoContext {
  const current = () => currentExecutor(db);
  return {
    db: current,
    sql: dialect,
    transaction: createTransaction(db),
    clock,
    prepare: (build) => prepare(current, build),
  };
}

/** How many rows a write touched, from the builder's bigint count. */
export const count = (n: bigint | undefined): number => Number(n ?? 0n);
