/**
 * Errors of the Postgres backend, with stable codes, and what the bot says when Postgres
 * stops it at start: one sentence that names DATABASE_URL, where it points (host, port or
 * socket folder, database; never the password, never the URL as a whole) and what to do.
 */
import { cutSecrets, databaseUrlSecrets } from '../../database-url-secrets.js';

type PostgresErrorCode =
  /** No server answers where DATABASE_URL points (refused, unknown host, timeout, no socket). */
  | 'pg_unreachable'
  /** The server answered and refused the login (password, unknown user, pg_hba.conf). */
  | 'pg_login_refused'
  /** The database DATABASE_URL names does not exist on the server. */
  | 'pg_database_missing'
  /** SSL as DATABASE_URL asks for it did not work (no SSL there, certificate not verified, CA file). */
  | 'pg_tls_failed'
  /** The server runs a PostgreSQL major the bot does not support. */
  | 'pg_server_too_old'
  /** The user may not create the bot's tables. */
  | 'pg_permission_denied'
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

/** The oldest PostgreSQL major the bot supports (the oldest the PostgreSQL project still maintains). */
const OLDEST_SUPPORTED_MAJOR = 15;

interface Target {
  /** "db.example.com:5432" or "the Unix socket in /var/run/postgresql (port 5432)" */
  server: string;
  database: string;
  user: string;
}

function targetOf(url: string): Target | null {
  try {
    const u = new URL(url);
    const q = u.searchParams;
    const host = q.get('host') || decodeURIComponent(u.hostname) || 'localhost';
    const port = q.get('port') || u.port || '5432';
    const user = q.get('user') || decodeURIComponent(u.username);
    const database = q.get('dbname') || decodeURIComponent(u.pathname.replace(/^\//, '')) || user;
    const server = host.startsWith('/') ? `the Unix socket in ${host} (port ${port})` : `${host}:${port}`;
    return { server, database: database || '(default database)', user: user || '(default user)' };
  } catch {
    return null;
  }
}

/** "db.example.com:5432/visibility" for messages: where, without who or the password. */
export function describeDatabaseUrl(url: string): string {
  const t = targetOf(url);
  if (!t) return 'the database in DATABASE_URL';
  return t.server.startsWith('the Unix socket')
    ? `${t.server}, database ${t.database}`
    : `${t.server}/${t.database}`;
}

/** `text` with DATABASE_URL's secrets (the URL, its password as written and decoded) cut out, for error messages. */
export function withoutPassword(text: string, url: string): string {
  return cutSecrets(text, databaseUrlSecrets(url), '[redacted]');
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
  'EPIPE',
]);
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const codeOf = (err: unknown) => String((err as { code?: unknown })?.code ?? '');
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The failure's code and the sentence after "DATABASE_URL", for what the server said. */
function explainServerAnswer(code: string, message: string, t: Target): [PostgresErrorCode, string] | null {
  switch (code) {
    case '28P01':
      return [
        'pg_login_refused',
        `: Postgres at ${t.server} refused the password of user "${t.user}"; put that user's current password in DATABASE_URL (percent-encoded).`,
      ];
    case '28000':
      if (/no encryption/.test(message))
        return [
          'pg_login_refused',
          `: Postgres at ${t.server} lets user "${t.user}" in only over an encrypted connection; add sslmode=require (or sslmode=verify-full with sslrootcert=/path/to/ca.pem) to DATABASE_URL.`,
        ];
      if (/role .* does not exist/.test(message))
        return [
          'pg_login_refused',
          `: user "${t.user}" does not exist on Postgres at ${t.server}; create it, or put an existing user in DATABASE_URL.`,
        ];
      return [
        'pg_login_refused',
        `: Postgres at ${t.server} does not let user "${t.user}" connect from this host; allow it in the server's pg_hba.conf (or the provider's network settings).`,
      ];
    case '3D000':
      return [
        'pg_database_missing',
        ` names the database "${t.database}", which does not exist on ${t.server}; create it (CREATE DATABASE ${t.database}) or fix the name.`,
      ];
    case '42501':
      return [
        'pg_permission_denied',
        `: user "${t.user}" may not create the bot's tables in database "${t.database}" on ${t.server}; make it the database's owner, or grant it CREATE on the database and on schema public.`,
      ];
    case '53300':
      return [
        'pg_unreachable',
        `: Postgres at ${t.server} has no connection left for the bot (max_connections); close idle clients or raise the limit, then start again.`,
      ];
    case '57P03':
      return [
        'pg_unreachable',
        `: Postgres at ${t.server} is starting up or shutting down; start the bot again in a moment.`,
      ];
    default:
      return null;
  }
}

/** The failure's code and the sentence after "DATABASE_URL", for what the connection ran into. */
function explainConnection(err: unknown, url: string, t: Target): [PostgresErrorCode, string] | null {
  const code = codeOf(err);
  const message = messageOf(err);
  if (/does not support SSL/i.test(message))
    return [
      'pg_tls_failed',
      `: Postgres at ${t.server} does not offer SSL; remove sslmode from DATABASE_URL, or set sslmode=disable.`,
    ];
  if (CERTIFICATE_CODES.has(code))
    return [
      'pg_tls_failed',
      `: the certificate of Postgres at ${t.server} could not be verified (${message}); give its CA certificate with sslrootcert=/path/to/ca.pem, or use sslmode=require to encrypt without verifying.`,
    ];
  let rootCert: string | null = null;
  try {
    rootCert = new URL(url).searchParams.get('sslrootcert');
  } catch {
    // Not a URL: it names no file.
  }
  if (code === 'ENOENT' && rootCert && message.includes(rootCert))
    return [
      'pg_tls_failed',
      `: the bot cannot read the file sslrootcert=${rootCert}; check the path, and that the bot may read it.`,
    ];
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return ['pg_unreachable', `: the host of ${t.server} is unknown; check the host name in DATABASE_URL.`];
  if (code === 'ENOENT' && t.server.startsWith('the Unix socket'))
    return [
      'pg_unreachable',
      `: no Postgres server listens on ${t.server}; check the host= folder and the port, and that the server runs.`,
    ];
  if (NETWORK_CODES.has(code) || /timeout|terminated/i.test(message))
    return [
      'pg_unreachable',
      `: no Postgres server answers at ${t.server}; check the host and port, and that the server runs and accepts connections from here.`,
    ];
  return null;
}

/**
 * What stopped the start (connecting, or migrating as `user`), as a PostgresError whose
 * message is one sentence naming DATABASE_URL and what to do. Never the password: the
 * server's own words are cut of the URL's secrets when they are quoted.
 */
export function explainStartupFailure(err: unknown, url: string): PostgresError {
  if (err instanceof PostgresError && err.code !== 'pg_migration_failed') return err;
  const cause = err instanceof PostgresError ? err.cause : err;
  const t = targetOf(url) ?? {
    server: 'the server in DATABASE_URL',
    database: '(unknown)',
    user: '(unknown)',
  };
  const explained =
    explainServerAnswer(codeOf(cause), messageOf(cause), t) ?? explainConnection(cause, url, t);
  if (explained) {
    const [code, sentence] = explained;
    return new PostgresError(code, withoutPassword(`DATABASE_URL${sentence}`, url), { cause });
  }
  if (err instanceof PostgresError) return err;
  const reason = withoutPassword(messageOf(cause), url);
  return new PostgresError(
    'pg_unreachable',
    `DATABASE_URL: cannot connect to Postgres at ${describeDatabaseUrl(url)} (${reason}); check the host, port, database name, user and password, and that the server accepts connections from here.`,
    { cause },
  );
}

/** Refuses a server older than the oldest supported major (`versionNum`: server_version_num). */
export function checkServerVersion(versionNum: number, url: string): void {
  const major = Math.floor(versionNum / 10_000);
  if (major >= OLDEST_SUPPORTED_MAJOR) return;
  const where = targetOf(url)?.server ?? 'the server in DATABASE_URL';
  throw new PostgresError(
    'pg_server_too_old',
    `DATABASE_URL points at PostgreSQL ${major} (${where}), and the bot needs ${OLDEST_SUPPORTED_MAJOR} or newer; upgrade the server, or point DATABASE_URL at a newer one.`,
  );
}
