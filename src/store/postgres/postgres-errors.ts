/**
 * Errors of the Postgres backend, with stable codes. Messages name DATABASE_URL's host,
 * port and database, never its password (the URL as a whole is never quoted).
 */
import { cutSecrets, databaseUrlSecrets } from '../../database-url-secrets.js';

export type PostgresErrorCode =
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

/** `text` with DATABASE_URL's secrets (the URL, its password as written and decoded) cut out, for error messages. */
export function withoutPassword(text: string, url: string): string {
  return cutSecrets(text, databaseUrlSecrets(url), '[redacted]');
}
