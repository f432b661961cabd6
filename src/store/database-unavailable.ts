/**
 * "The database cannot be used right now" told apart from every other error, for both
 * backends, in one place: a Postgres server that is stopped, restarting, out of reach or
 * not answering in time, and an SQLite file another connection holds locked. Those are
 * outages the process outlives (commands answer that nothing was changed, jobs wait and
 * resume, /readyz drains the replica); anything else (a constraint, a bug) is not.
 *
 * A leaf on purpose: it imports nothing and opens nothing, so the wording of an outage
 * (messages/explain-error.ts) and every layer above can use it.
 */

export type DatabaseUnavailableCode =
  /** Postgres: refused, reset, unreachable, shutting down or starting up, out of connections. */
  | 'db_unreachable'
  /** SQLite: another connection holds the lock past busy_timeout (Postgres: lock_timeout). */
  | 'db_locked'
  /** No answer within the time allowed (a connect, a statement, a call's deadline). */
  | 'db_timeout';

export class DatabaseUnavailableError extends Error {
  readonly code: DatabaseUnavailableCode;
  constructor(code: DatabaseUnavailableCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
    this.code = code;
  }
}

/** Node's socket errors on the way to the server (connect, DNS, a dropped link). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Postgres SQLSTATEs meaning "this server cannot serve us now" (appendix A of the
 * PostgreSQL manual): class 08 connection exceptions, and the operator intervention
 * codes a stop, a crash or a restart sends. 25006: after a failover the old primary
 * answers read-only until the address moves to the new one.
 */
const PG_UNREACHABLE = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
/** 57014: statement_timeout cancelled the statement (rolled back, nothing applied). */
const PG_TIMEOUT = new Set(['57014']);
/** 55P03: lock_timeout. */
const PG_LOCKED = new Set(['55P03']);

/**
 * pg's own errors carry no code, only these messages (pg and pg-pool 8): the connection
 * died under a query, a connect or a query ran past its timeout.
 */
const PG_MESSAGES: readonly [RegExp, DatabaseUnavailableCode][] = [
  [/^Connection terminated unexpectedly$/, 'db_unreachable'],
  [/^Client has encountered a connection error and is not queryable$/, 'db_unreachable'],
  [/^timeout exceeded when trying to connect$/, 'db_timeout'],
  [/^Connection terminated due to connection timeout$/, 'db_timeout'],
  [/^Query read timeout$/, 'db_timeout'],
];

function ownCode(err: unknown): DatabaseUnavailableCode | undefined {
  if (err instanceof DatabaseUnavailableError) return err.code;
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    // SQLITE_BUSY_TIMEOUT, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE… are the same news.
    if (/^SQLITE_(BUSY|LOCKED|PROTOCOL)/.test(code)) return 'db_locked';
    if (NETWORK_CODES.has(code)) return code === 'ETIMEDOUT' ? 'db_timeout' : 'db_unreachable';
    if (code.startsWith('08') && code.length === 5) return 'db_unreachable';
    if (PG_UNREACHABLE.has(code)) return 'db_unreachable';
    if (PG_TIMEOUT.has(code)) return 'db_timeout';
    if (PG_LOCKED.has(code)) return 'db_locked';
  }
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string') {
    for (const [pattern, c] of PG_MESSAGES) if (pattern.test(message)) return c;
  }
  return undefined;
}

/**
 * The API client's errors carry codes `api_…` (api/errors.ts): an error the service's
 * call made is the service's news, whatever its cause holds (the socket's ECONNREFUSED of
 * an API that cannot be reached reads like a database's). Told by the code, so this file
 * still imports nothing.
 */
const isServiceError = (err: object): boolean => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('api_');
};

/**
 * Wrappers a database error may hide in: `cause` chains (ours, pg-boss's, the rate
 * budget's), AggregateError; not an API error's cause.
 */
function inner(err: unknown): unknown[] {
  if (typeof err !== 'object' || err === null || isServiceError(err)) return [];
  const found: unknown[] = [];
  if ('cause' in err) found.push((err as { cause?: unknown }).cause);
  if (err instanceof AggregateError) found.push(...err.errors);
  return found;
}

/**
 * The outage `err` reports, looking through the errors it wraps (the rate budget's
 * BudgetStoreError around a pg error, say); undefined when it is not one.
 */
export function databaseUnavailableCode(err: unknown, depth = 0): DatabaseUnavailableCode | undefined {
  const own = ownCode(err);
  if (own !== undefined || depth >= 5) return own;
  for (const e of inner(err)) {
    const code = databaseUnavailableCode(e, depth + 1);
    if (code !== undefined) return code;
  }
  return undefined;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return databaseUnavailableCode(err) !== undefined;
}

const WHAT: Record<DatabaseUnavailableCode, string> = {
  db_unreachable: 'The database cannot be reached',
  db_locked: 'The database is locked by another connection',
  db_timeout: 'The database did not answer in time',
};

/** `err` as a DatabaseUnavailableError (itself when it is one, else wrapping it); undefined when it is no outage. */
export function asDatabaseUnavailable(err: unknown): DatabaseUnavailableError | undefined {
  if (err instanceof DatabaseUnavailableError) return err;
  const code = databaseUnavailableCode(err);
  if (code === undefined) return undefined;
  const reason = err instanceof Error ? err.message : String(err);
  return new DatabaseUnavailableError(code, `${WHAT[code]} (${reason}).`, { cause: err });
}

/** A DatabaseUnavailableError of our own making (a deadline, a call refused while the database is down). */
export function databaseUnavailable(code: DatabaseUnavailableCode, detail: string): DatabaseUnavailableError {
  return new DatabaseUnavailableError(code, `${WHAT[code]}: ${detail}.`);
}
