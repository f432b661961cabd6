/**
 * Which transaction the current async call chain is inside. Callers write
 * `await runInTransaction(async () => { await citations.save(…); await outbox.enqueue(…) })`
 * with repositories captured in closures; a repository finds the transaction's connection
 * here rather than taking it as an argument, so the same repository object serves calls
 * inside and outside a transaction. Backend-neutral: SQLite keeps its one connection in
 * `connection`, a pooled backend keeps the client it checked out for the transaction.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TransactionFrame {
  /** What the transaction was opened on (the SQLite handle, a connection pool). */
  readonly owner: object;
  /** The connection the transaction's statements must run on. */
  readonly connection: unknown;
  /** The outermost frame of this transaction (itself when not nested). */
  readonly root: TransactionFrame;
  /** 0 for the transaction itself, 1 and deeper for savepoints inside it. */
  readonly depth: number;
}

export const transactionScope = new AsyncLocalStorage<TransactionFrame>();

/** A frame whose nested transactions (savepoints) run one after another, as a stack must. */
export interface NestingFrame extends TransactionFrame {
  /** Settles when the last nested transaction started from this frame has ended. */
  tail: Promise<void>;
}

/**
 * Runs `fn` once every nested transaction started from `parent` before it has ended:
 * concurrent calls inside one transaction must not interleave their savepoints.
 */
export async function inTurn<T>(parent: NestingFrame, fn: () => Promise<T>): Promise<T> {
  const before = parent.tail;
  let done!: () => void;
  parent.tail = new Promise((resolve) => {
    done = resolve;
  });
  try {
    await before;
    return await fn();
  } finally {
    done();
  }
}
