/**
 * DATABASE_URL as operators write it, on a real server that listens on a Unix socket and
 * offers SSL with a certificate of a test CA: a `host=` socket folder in the query (local
 * servers, managed databases' socket proxies), `sslmode` with libpq's meanings and a CA
 * file (`sslrootcert`). Each URL goes through the configuration, as the bot reads it, then
 * opens the store. When Postgres stops the start, the bot says so in one sentence that
 * names DATABASE_URL and what to do, never the password.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createPool } from '../../../src/store/postgres/create-pool.js';
import { openPostgres } from '../../../src/store/postgres/open-postgres.js';
import { checkServerVersion, PostgresError } from '../../../src/store/postgres/postgres-errors.js';
import { lookupOsUser } from '../../helpers/postgres-binaries.js';
import { type StartedPostgres, startPostgresServer } from '../../helpers/postgres-server.js';

const env = {
  VISIBILITY_API_URL: 'http://127.0.0.1:4010',
  VISIBILITY_API_KEY: 'sk_live_abcdefghijklmnopqrstuvwxyz123456',
  SLACK_BOT_TOKEN: 'xoxb-1234-5678-secretsecret',
  SLACK_SIGNING_SECRET: 'signing-secret-value-0001',
};
/** DATABASE_URL as the bot reads it (sslmode gets libpq's meaning there). */
const configured = (url: string) => loadConfig('serve', { ...env, DATABASE_URL: url }).databaseUrl!;

let server: StartedPostgres;
let dir = '';
let admin: URL;
let password = '';

/** A CA and a server certificate it signed, for 127.0.0.1 and localhost. */
function makeCertificates(into: string): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: into, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=visibility test CA',
  );
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  execFileSync(
    '/bin/sh',
    [
      '-c',
      'printf "subjectAltName=IP:127.0.0.1,DNS:localhost" > san.ext && openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile san.ext',
    ],
    { cwd: into, stdio: 'pipe' },
  );
}

/** A URL on the test server; `database` defaults to one the test made. */
const tcp = (query = '', database = 'urls') =>
  `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${admin.port}/${database}${query}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vbot-pgurl-'));
  makeCertificates(dir);
  server = await startPostgresServer({
    settings: {
      unix_socket_directories: dir,
      ssl: 'on',
      ssl_cert_file: join(dir, 'server.crt'),
      ssl_key_file: join(dir, 'server.key'),
    },
    // The server's user needs the socket folder and its key (which it wants private).
    beforeStart: (user) => {
      const owner = user ? lookupOsUser(user) : undefined;
      if (!owner) return;
      for (const f of [dir, join(dir, 'server.crt'), join(dir, 'server.key')])
        chownSync(f, owner.uid, owner.gid);
    },
  });
  admin = new URL(server.adminUrl);
  password = decodeURIComponent(admin.password);
  const pool = createPool(server.adminUrl, { max: 1 });
  await pool.query('CREATE DATABASE urls');
  await pool.query("CREATE ROLE reader LOGIN PASSWORD 'reader-pw-123'");
  await pool.query('CREATE DATABASE locked');
  await pool.end();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the store at `url` (through the configuration), runs `query` and closes it. */
async function through<T>(url: string, query: string): Promise<T> {
  const { pool } = await openPostgres(configured(url));
  try {
    return (await pool.query(query)).rows[0] as T;
  } finally {
    await pool.end();
  }
}

/** The start's failure at `url`: its code and sentence, checked to name DATABASE_URL and hide the password. */
async function failureAt(url: string, secret = password): Promise<PostgresError> {
  const err = await openPostgres(configured(url), { connectionTimeoutMillis: 5000 }).then(
    () => new Error('it opened'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PostgresError);
  const { message } = err as PostgresError;
  expect(message).toMatch(/^DATABASE_URL[ :]/);
  expect(message).not.toContain(secret);
  expect(message).not.toContain(encodeURIComponent(secret));
  expect(message).not.toContain('\n');
  return err as PostgresError;
}

describe('DATABASE_URL with a Unix socket', () => {
  it('connects through the socket folder a host= names, with the host part or without it', async () => {
    const pw = encodeURIComponent(password);
    for (const url of [
      `postgres://postgres:${pw}@localhost/urls?host=${dir}&port=${admin.port}`,
      `postgres:///urls?host=${dir}&port=${admin.port}&user=postgres&password=${pw}`,
    ]) {
      // A connection over a Unix socket has no server address.
      const row = await through<{ address: string | null; db: string }>(
        url,
        'SELECT inet_server_addr() AS address, current_database() AS db',
      );
      expect(row).toEqual({ address: null, db: 'urls' });
    }
  });

  it('says so when no server listens in that folder', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'vbot-nosock-'));
    try {
      const err = await failureAt(
        `postgres:///urls?host=${empty}&user=postgres&password=${encodeURIComponent(password)}`,
      );
      expect(err.code).toBe('pg_unreachable');
      expect(err.message).toContain(`no Postgres server listens on the Unix socket in ${empty} (port 5432)`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('DATABASE_URL with sslmode', () => {
  const encrypted = 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()';

  it('verify-full checks the certificate against the CA file sslrootcert names', async () => {
    const row = await through<{ ssl: boolean }>(
      tcp(`?sslmode=verify-full&sslrootcert=${join(dir, 'ca.crt')}`),
      encrypted,
    );
    expect(row.ssl).toBe(true);
  });

  it('require encrypts without verifying, as libpq does; disable does not encrypt', async () => {
    expect((await through<{ ssl: boolean }>(tcp('?sslmode=require'), encrypted)).ssl).toBe(true);
    expect((await through<{ ssl: boolean }>(tcp('?sslmode=disable'), encrypted)).ssl).toBe(false);
  });

  it('a certificate the CA file does not vouch for stops the start, saying what to give', async () => {
    const err = await failureAt(tcp('?sslmode=verify-full'));
    expect(err.code).toBe('pg_tls_failed');
    expect(err.message).toContain('could not be verified');
    expect(err.message).toContain('sslrootcert=/path/to/ca.pem');
  });

  it('a CA file that is not there stops the start, naming it', async () => {
    const missing = join(dir, 'no-such-ca.pem');
    const err = await failureAt(tcp(`?sslmode=verify-ca&sslrootcert=${missing}`));
    expect(err.code).toBe('pg_tls_failed');
    expect(err.message).toBe(
      `DATABASE_URL: the bot cannot read the file sslrootcert=${missing}; check the path, and that the bot may read it.`,
    );
  });
});

describe('what stops the start, in one sentence', () => {
  it('a wrong password', async () => {
    const url = `postgres://postgres:${encodeURIComponent('not-the-password-7')}@127.0.0.1:${admin.port}/urls`;
    const err = await failureAt(url, 'not-the-password-7');
    expect(err.code).toBe('pg_login_refused');
    expect(err.message).toBe(
      `DATABASE_URL: Postgres at 127.0.0.1:${admin.port} refused the password of user "postgres"; put that user's current password in DATABASE_URL (percent-encoded).`,
    );
  });

  it('a database that does not exist', async () => {
    const err = await failureAt(tcp('', 'nosuchdb'));
    expect(err.code).toBe('pg_database_missing');
    expect(err.message).toBe(
      `DATABASE_URL names the database "nosuchdb", which does not exist on 127.0.0.1:${admin.port}; create it (CREATE DATABASE nosuchdb) or fix the name.`,
    );
  });

  it('a server that does not answer', async () => {
    const err = await failureAt(`postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:1/urls`);
    expect(err.code).toBe('pg_unreachable');
    expect(err.message).toContain(
      'DATABASE_URL: no Postgres server answers at 127.0.0.1:1; check the host and port',
    );
  });

  it('a user who may not create the tables', async () => {
    const err = await failureAt(
      `postgres://reader:reader-pw-123@127.0.0.1:${admin.port}/locked`,
      'reader-pw-123',
    );
    expect(err.code).toBe('pg_permission_denied');
    expect(err.message).toBe(
      `DATABASE_URL: user "reader" may not create the bot's tables in database "locked" on 127.0.0.1:${admin.port}; make it the database's owner, or grant it CREATE on the database and on schema public.`,
    );
  });

  it('a server older than PostgreSQL 15', () => {
    const url = 'postgres://bot:hunter2hunter2@db.internal:5432/visibility';
    expect(() => checkServerVersion(150_000, url)).not.toThrow();
    expect(() => checkServerVersion(140_011, url)).toThrow(
      new PostgresError(
        'pg_server_too_old',
        'DATABASE_URL points at PostgreSQL 14 (db.internal:5432), and the bot needs 15 or newer; upgrade the server, or point DATABASE_URL at a newer one.',
      ),
    );
  });
});
