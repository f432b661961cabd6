/**
 * DATABASE_URL: optional, a postgres:// URL when set, selects the Postgres backend, and its
 * password never leaves the process: not in config errors, and every log line is scrubbed
 * of it, nor from what the verbs print when Postgres does not answer.
 */
import { spawnSync } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, secretsOf } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { usePostgresDatabase } from './helpers/postgres-database.js';

const full = {
  VISIBILITY_API_URL: 'http://127.0.0.1:4010',
  VISIBILITY_API_KEY: 'sk_live_abcdefghijklmnopqrstuvwxyz123456',
  SLACK_BOT_TOKEN: 'xoxb-1234-5678-secretsecret',
  SLACK_SIGNING_SECRET: 'signing-secret-value-0001',
};
const PASSWORD = 's3cr3t/pa$$word';
const URL_WITH_PASSWORD = `postgres://bot:${encodeURIComponent(PASSWORD)}@db.internal:5432/visibility`;

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('DATABASE_URL', () => {
  it('is optional: unset keeps SQLite at DATABASE_PATH', () => {
    const c = loadConfig('serve', full);
    expect(c.databaseBackend).toBe('sqlite');
    expect(c.databaseUrl).toBeUndefined();
    expect(loadConfig('serve', { ...full, DATABASE_URL: '  ' }).databaseBackend).toBe('sqlite');
  });

  it.each(['postgres://bot:pw@db.internal:5432/visibility', 'postgresql://db.internal/visibility'])(
    'selects Postgres with %s',
    (url) => {
      const c = loadConfig('run-job', { ...full, DATABASE_URL: url });
      expect(c.databaseBackend).toBe('postgres');
      expect(c.databaseUrl).toBe(url);
    },
  );

  it.each([
    'postgres:///visibility?host=/var/run/postgresql',
    'postgres://bot:pw@localhost/visibility?host=/cloudsql/project:region:instance',
  ])('takes a Unix socket folder as host= in the query: %s', (url) => {
    expect(loadConfig('serve', { ...full, DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('gives sslmode the meaning libpq and every Postgres tool give it', () => {
    const url = 'postgres://bot:pw@db.internal/visibility?sslmode=require';
    expect(loadConfig('serve', { ...full, DATABASE_URL: url }).databaseUrl).toBe(
      `${url}&uselibpqcompat=true`,
    );
    const asked = `${url}&uselibpqcompat=false`;
    expect(loadConfig('serve', { ...full, DATABASE_URL: asked }).databaseUrl).toBe(asked);
    expect(problemsOf(() => loadConfig('serve', { ...full, DATABASE_URL: `${url}x` }))).toEqual([
      'DATABASE_URL has an sslmode that is not one of disable, prefer, require, verify-ca, verify-full.',
    ]);
  });

  it('counts a password given in the query as a secret too', () => {
    const url = 'postgres:///visibility?host=/var/run/postgresql&user=bot&password=hunter2%21hunter2';
    const secrets = secretsOf(loadConfig('serve', { ...full, DATABASE_URL: url }));
    expect(secrets).toEqual(expect.arrayContaining([url, 'hunter2%21hunter2', 'hunter2!hunter2']));
  });

  it.each([
    ['a MySQL URL', 'mysql://bot:hunter2hunter2@db/visibility'],
    ['a file path', 'data/visibility.db'],
    ['an http URL', 'http://db.internal:5432/visibility'],
    ['no host', 'postgres:///visibility'],
    ['an empty host= in the query', 'postgres:///visibility?host='],
    ['an unencoded # in the password', 'postgres://bot:hunter2#hunter2@db/visibility'],
  ])('rejects %s with a coded error that does not echo it', (_what, url) => {
    let err: unknown;
    try {
      loadConfig('run-job', { ...full, DATABASE_URL: url });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe('config_invalid');
    const problems = (err as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect((err as Error).message).not.toContain('hunter2');
    expect((err as Error).message).not.toContain(url);
  });

  it('is validated for every verb that reads the database, with the other problems', () => {
    const problems = problemsOf(() =>
      loadConfig('check', { ...full, DATABASE_URL: 'sqlite:x.db', LOG_LEVEL: 'loud' }),
    );
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['DATABASE_URL', 'LOG_LEVEL']);
  });

  it('hands its password to the logger, which scrubs it from every line', () => {
    const config = loadConfig('serve', { ...full, DATABASE_URL: URL_WITH_PASSWORD });
    const secrets = secretsOf(config);
    expect(secrets).toContain(PASSWORD);
    expect(secrets).toContain(encodeURIComponent(PASSWORD));

    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ secrets, destination });
    logger.error({ err: new Error(`connect failed for ${config.databaseUrl}`) }, 'database down');
    logger.warn(`login as bot with ${PASSWORD} refused`);
    logger.info({ databaseUrl: config.databaseUrl, pool: { connectionString: config.databaseUrl } }, 'pool');
    const out = lines.join('');
    expect(lines).toHaveLength(3);
    expect(out).not.toContain(PASSWORD);
    expect(out).not.toContain(encodeURIComponent(PASSWORD));
    expect(out).toContain('[redacted]');
  });

  it('a password too short to scrub alone is still caught inside the URL', () => {
    const url = 'postgres://bot:pw@db.internal/visibility';
    const secrets = secretsOf(loadConfig('serve', { ...full, DATABASE_URL: url }));
    expect(secrets).toContain(url);
    expect(secretsOf(loadConfig('serve', { ...full, DATABASE_URL: 'postgres://db.internal/v' }))).toEqual(
      secretsOf(loadConfig('serve', full)),
    );
  });
});

describe('visibility-bot with DATABASE_URL', () => {
  const pg = usePostgresDatabase();
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
    });

  it.each([['run-job', 'all'], ['serve']])(
    '%s stops at start-up when Postgres does not answer, naming where, without the password',
    async (...args) => {
      const port = await closedPort();
      const res = run(args, {
        ...full,
        DATABASE_URL: `postgres://bot:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/visibility`,
      });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(
        `DATABASE_URL: no Postgres server answers at 127.0.0.1:${port}; check the host`,
      );
      expect(res.stderr).not.toContain(PASSWORD);
      expect(res.stderr).not.toContain(encodeURIComponent(PASSWORD));
      expect(res.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('check says Postgres does not answer, without the password', async () => {
    const port = await closedPort();
    const res = run(['check'], {
      ...full,
      DATABASE_URL: `postgres://bot:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/visibility`,
    });
    expect(res.status).toBe(1);
    expect(res.stdout).toContain(
      `✗ DATABASE_URL: no Postgres server answers at 127.0.0.1:${port}; check the host`,
    );
    expect(res.stdout + res.stderr).not.toContain(PASSWORD);
    expect(res.stdout + res.stderr).not.toContain(encodeURIComponent(PASSWORD));
  });

  it('check reaches a real Postgres and reports its schema without changing it', () => {
    const res = run(['check'], { ...full, DATABASE_URL: pg.url });
    const where = new URL(pg.url);
    expect(res.stdout).toContain(
      `✓ Postgres at ${where.hostname}:${where.port}${where.pathname} answers; serve and run-job will create the tables`,
    );
    if (where.password) expect(res.stdout).not.toContain(decodeURIComponent(where.password));
  });
});

/** A local port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
