/**
 * The connection pool every Postgres repository shares, from DATABASE_URL.
 */
import pg from 'pg';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export interface PoolOptions {
  /** Connections at most; default 10 (a replica's share of a managed server's ~100). */
  max?: number;
  /** ms to wait for a connection (new or from the pool) before failing; default 10 000. */
  connectionTimeoutMillis?: number;
  /** ms an unused connection stays open; default 30 000. */
  idleTimeoutMillis?: number;
  /** ms a statement may run before the server cancels it; default 30 000, 0 = none. */
  statementTimeoutMillis?: number;
  /**
   * ms the client waits for any answer to a query before it gives up on the connection;
   * default statement_timeout + 5 000 (the server cancels, and rolls back, a slow statement
   * first: this only catches a server that stopped answering, e.g. a host gone without a
   * reset, which TCP keep-alive would take hours to notice). 0 = none.
   */
  queryTimeoutMillis?: number;
  /** Shown in pg_stat_activity; default "visibility-bot". */
  applicationName?: string;
  /**
   * An idle connection failed (server restart, network cut). The pool drops it and opens a
   * new one on demand; without a listener pg would crash the process on this event.
   */
  onIdleError?: (err: Error) => void;
}

const INT8_OID = 20;
const JSON_OID = 114;
const JSONB_OID = 3802;

type TypeParsers = { getTypeParser: typeof pg.types.getTypeParser };

/**
 * Type parsers for this pool only (the global pg.types would change every pool in the
 * process): bigint columns hold epoch ms and ids, far below 2^53, so they come back as
 * numbers instead of pg's default strings.
 */
const types: TypeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * The same, but json and jsonb come back as their text, as SQLite's JSON columns do: the
 * store's repositories read JSON one way on both backends (and a packed citation state is
 * parsed once, by its own reader, not twice). Given per statement, by the store only.
 */
export const jsonAsText: TypeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === JSON_OID || oid === JSONB_OID) && format !== 'binary'
      ? (value: string) => value
      : types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function createPool(url: string, options: PoolOptions = {}): PgPool {
  const statementTimeout = options.statementTimeoutMillis ?? 30_000;
  const queryTimeout = options.queryTimeoutMillis ?? (statementTimeout > 0 ? statementTimeout + 5_000 : 0);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 10_000,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 30_000,
    statement_timeout: statementTimeout,
    ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
    application_name: options.applicationName ?? 'visibility-bot',
    // A dead peer behind a load balancer or NAT is noticed instead of hanging a query.
    keepAlive: true,
    types,
  });
  pool.on('error', options.onIdleError ?? ignoreIdleError);
  return pool;
}

/** The pool already dropped the connection; the next query opens a new one. */
function ignoreIdleError(): void {}

/**
 * ROLLBACK, returning the error when even that failed: the connection is then in an
 * unknown state, and the caller hands the error to release() so the pool destroys it
 * (which also frees any session lock it held) instead of reusing it.
 */
export async function rollback(client: PgClient): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error('ROLLBACK failed');
  }
}

/**
 * Runs `fn` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when
 * it throws (the error is rethrown). The connection goes back to the pool either way.
 *
 * While the connection is checked out the pool listens to it no more: a server that goes
 * away between two statements (a restart: "terminating connection due to administrator
 * command", then the socket closing) makes pg emit 'error' on it, which with no listener
 * ends the process. Listened to here: the statement in flight, or the next, fails instead,
 * and the dead connection is handed back as broken.
 */
export async function withTransaction<T>(pool: PgPool, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onLost = (err: Error) => {
    lost = err;
  };
  client.on('error', onLost);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    broken = await rollback(client);
    throw err;
  } finally {
    client.removeListener('error', onLost);
    client.release(broken ?? lost);
  }
}
