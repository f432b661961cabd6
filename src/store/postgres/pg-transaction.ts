/**
 * Transactions on Postgres through the same context as SQLite's (transaction-scope.ts):
 * callers write `await pgTransaction(pool, async () => { await repoA.x(); await repoB.y() })`
 * with repositories captured in closures, and every repository statement runs on
 * `pgExecutor(pool)`: the transaction's client inside one, the pool outside. So the
 * repositories need no transaction argument, and code written against the SQLite seam
 * runs unchanged.
 *
 * Unlike SQLite there is no gate: a pool hands each transaction its own connection, so a
 * statement outside the transaction simply runs on another connection and sees only
 * committed rows. Nested calls become savepoints on the transaction's client, one at a
 * time (a client runs one query at a time anyway; the savepoint order must be a stack).
 */
import { inTurn, type NestingFrame, transactionScope } from '../transaction-scope.js';
import { type PgClient, type PgPool, withTransaction } from './create-pool.js';

interface PgFrame extends NestingFrame {
  readonly owner: PgPool;
  readonly connection: PgClient;
}

/** The caller's open transaction on `pool`, if it runs inside one. */
function frameOn(pool: PgPool): PgFrame | null {
  const frame = transactionScope.getStore() as PgFrame | undefined;
  return frame !== undefined && frame.owner === pool ? frame : null;
}

/** What a repository runs its statements on: the open transaction's client, else the pool. */
export function pgExecutor(pool: PgPool): PgPool | PgClient {
  return frameOn(pool)?.connection ?? pool;
}

function savepoint<T>(parent: PgFrame, fn: () => Promise<T>): Promise<T> {
  return inTurn(parent, async () => {
    const frame: PgFrame = {
      owner: parent.owner,
      connection: parent.connection,
      root: parent.root,
      depth: parent.depth + 1,
      tail: Promise.resolve(),
    };
    const name = `nested_${frame.depth}`;
    await frame.connection.query(`SAVEPOINT ${name}`);
    try {
      const result = await transactionScope.run(frame, fn);
      await frame.connection.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await frame.connection.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
      throw err;
    }
  });
}

/**
 * Runs `fn` in one transaction: COMMIT when it resolves, ROLLBACK when it throws (the
 * error is rethrown). Inside another transaction on the same pool it is a savepoint.
 */
export function pgTransaction<T>(pool: PgPool, fn: () => Promise<T>): Promise<T> {
  const parent = frameOn(pool);
  if (parent) return savepoint(parent, fn);
  return withTransaction(pool, (client) => {
    const frame: PgFrame = {
      owner: pool,
      connection: client,
      depth: 0,
      tail: Promise.resolve(),
      get root() {
        return frame;
      },
    };
    return transactionScope.run(frame, fn);
  });
}
