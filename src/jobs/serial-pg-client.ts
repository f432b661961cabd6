/**
 * A pg client that runs the statements it is given one after another, for the job engine's
 * pool. pg queues a statement given while another one runs on the same connection, and
 * deprecates doing so ("Calling client.query() when the client is already executing a
 * query"; pg 9 drops the queue). pg-boss does it: with session statements to apply (its
 * TestClock's), it queues them on each new connection from the pool's 'connect' event,
 * and the pool then hands that connection to the statement that asked for it. Here the
 * second waits for the first, in the order they were given: what pg-boss means, done the
 * way pg asks callers to. (The store never does it: one transaction runs one statement at
 * a time on its connection, and everything else takes a connection per statement.)
 */
import pg from 'pg';

type Callback = (err: Error | null, result?: unknown) => void;

/** Settles when the last statement given to the client has ended. */
const tails = new WeakMap<pg.Client, Promise<void>>();
const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

function serialQuery(this: pg.Client, ...args: unknown[]): unknown {
  // A stream or cursor is handed back at once, as pg does; pg-boss gives none.
  if (typeof (args[0] as { submit?: unknown } | undefined)?.submit === 'function')
    return plainQuery.apply(this, args);
  const before = tails.get(this) ?? Promise.resolve();
  const last = args.at(-1);
  if (typeof last === 'function') {
    const given = args.slice(0, -1);
    const ended = before.then(
      () =>
        new Promise<void>((settle) => {
          const callback: Callback = (err, result) => {
            settle();
            (last as Callback)(err, result);
          };
          try {
            plainQuery.apply(this, [...given, callback]);
          } catch (err) {
            callback(err instanceof Error ? err : new Error(String(err)));
          }
        }),
    );
    tails.set(this, ended);
    return undefined;
  }
  const result = before.then(() => plainQuery.apply(this, args) as Promise<unknown>);
  tails.set(
    this,
    result.then(
      () => undefined,
      () => undefined,
    ),
  );
  return result;
}

export class SerialPgClient extends pg.Client {}
SerialPgClient.prototype.query = serialQuery as typeof pg.Client.prototype.query;
