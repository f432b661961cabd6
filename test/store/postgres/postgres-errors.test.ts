/**
 * What the bot says when Postgres stops its start, for the answers a test server cannot be
 * made to give (database-url.test.ts runs the others against a real one): errors shaped as
 * pg hands them over, the server's SQLSTATE code and words, or Node's network error codes.
 */
import { describe, expect, it } from 'vitest';
import {
  describeDatabaseUrl,
  explainStartupFailure,
  PostgresError,
} from '../../../src/store/postgres/postgres-errors.js';

const URL = 'postgres://bot:hunter2hunter2@db.internal:6432/visibility';
const SOCKET = 'postgres:///visibility?host=/var/run/postgresql&user=bot&password=hunter2hunter2';

/** An error as pg gives it: the server's SQLSTATE, or Node's code for a socket error. */
const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('explainStartupFailure', () => {
  it.each([
    [
      failure(
        '28000',
        'no pg_hba.conf entry for host "10.0.0.7", user "bot", database "visibility", no encryption',
      ),
      'pg_login_refused',
      'DATABASE_URL: Postgres at db.internal:6432 lets user "bot" in only over an encrypted connection; add sslmode=require (or sslmode=verify-full with sslrootcert=/path/to/ca.pem) to DATABASE_URL.',
    ],
    [
      failure('28000', 'role "bot" does not exist'),
      'pg_login_refused',
      'DATABASE_URL: user "bot" does not exist on Postgres at db.internal:6432; create it, or put an existing user in DATABASE_URL.',
    ],
    [
      failure(
        '28000',
        'no pg_hba.conf entry for host "10.0.0.7", user "bot", database "visibility", SSL encryption',
      ),
      'pg_login_refused',
      `DATABASE_URL: Postgres at db.internal:6432 does not let user "bot" connect from this host; allow it in the server's pg_hba.conf (or the provider's network settings).`,
    ],
    [
      failure('53300', 'sorry, too many clients already'),
      'pg_unreachable',
      'DATABASE_URL: Postgres at db.internal:6432 has no connection left for the bot (max_connections); close idle clients or raise the limit, then start again.',
    ],
    [
      failure('57P03', 'the database system is starting up'),
      'pg_unreachable',
      'DATABASE_URL: Postgres at db.internal:6432 is starting up or shutting down; start the bot again in a moment.',
    ],
    [
      failure('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'),
      'pg_unreachable',
      'DATABASE_URL: the host of db.internal:6432 is unknown; check the host name in DATABASE_URL.',
    ],
    [
      new Error('The server does not support SSL connections'),
      'pg_tls_failed',
      'DATABASE_URL: Postgres at db.internal:6432 does not offer SSL; remove sslmode from DATABASE_URL, or set sslmode=disable.',
    ],
    [
      new Error('Connection terminated due to connection timeout'),
      'pg_unreachable',
      'DATABASE_URL: no Postgres server answers at db.internal:6432; check the host and port, and that the server runs and accepts connections from here.',
    ],
  ])('%s', (err, code, message) => {
    expect(explainStartupFailure(err, URL)).toMatchObject({ code, message });
  });

  it('quotes what it cannot tell apart, without the password', () => {
    const err = explainStartupFailure(
      failure('XX000', 'internal error for postgres://bot:hunter2hunter2@x'),
      URL,
    );
    expect(err.code).toBe('pg_unreachable');
    expect(err.message).toBe(
      'DATABASE_URL: cannot connect to Postgres at db.internal:6432/visibility (internal error for postgres://bot:[redacted]@x); check the host, port, database name, user and password, and that the server accepts connections from here.',
    );
  });

  it('keeps a failed migration as it is unless the user lacked the right to create tables', () => {
    const failed = new PostgresError('pg_migration_failed', 'Postgres migration 11 (x) failed: boom.', {
      cause: failure('42P07', 'relation "x" already exists'),
    });
    expect(explainStartupFailure(failed, URL)).toBe(failed);
    const denied = new PostgresError('pg_migration_failed', 'Postgres migration 11 (x) failed.', {
      cause: failure('42501', 'permission denied for schema public'),
    });
    expect(explainStartupFailure(denied, URL).code).toBe('pg_permission_denied');
    const tooOld = new PostgresError('pg_server_too_old', 'DATABASE_URL points at PostgreSQL 14 …');
    expect(explainStartupFailure(tooOld, URL)).toBe(tooOld);
  });

  it('names a socket folder, never the password given in the query', () => {
    expect(describeDatabaseUrl(SOCKET)).toBe(
      'the Unix socket in /var/run/postgresql (port 5432), database visibility',
    );
    const err = explainStartupFailure(
      failure('28P01', 'password authentication failed for user "bot"'),
      SOCKET,
    );
    expect(err.message).toBe(
      `DATABASE_URL: Postgres at the Unix socket in /var/run/postgresql (port 5432) refused the password of user "bot"; put that user's current password in DATABASE_URL (percent-encoded).`,
    );
    expect(describeDatabaseUrl('host=db user=bot')).toBe('the database in DATABASE_URL');
  });
});
