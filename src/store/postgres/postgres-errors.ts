/**
 * Errors of the Postgres backend, with stable codes. Messages name DATABASE_URL's host,
 * port and database, never its password (the URL as a whole is never quoted).
 */
export type PostgresErrorCode =
  /** DATABASE_URL is set but this version cannot use Postgres yet. */
  | 'pg_backend_unavailable'
  /** The server cannot be reached or refused the login. */
  | 'pg_unreachable'
  /** A schema migration failed; the database keeps the versions applied before it. */
  | 'pg_migration_failed'
  /** The migration list itself is malformed (a programming error). */
  | 'pg_migrations_invalid';

export class PostgresError extends Error {
  readonly code: PostgresErrorCode;
  constructor(code: PostgresErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PostgresError';
    this.code = code;
  }
}

/** DATABASE_URL is set, but this version's repositories run on SQLite only. */
export function postgresBackendUnavailable(): PostgresError {
  return new PostgresError(
    'pg_backend_unavailable',
    'DATABASE_URL is set, but the Postgres backend is not available in this version yet. ' +
      'Unset DATABASE_URL to use SQLite (DATABASE_PATH, default data/visibility.db).',
  );
}

/** "db.example.com:5432/visibility" for messages: where, without who or the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default database)';
    return `${u.hostname || 'localhost'}:${u.port || '5432'}/${database}`;
  } catch {
    return 'the database in DATABASE_URL';
  }
}

/** `text` with DATABASE_URL's password (as written and decoded) cut out, for error messages. */
export function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return text;
  }
  let out = text;
  for (const secret of new Set([password, safeDecode(password)])) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
