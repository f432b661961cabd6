/**
 * DATABASE_URL: optional, a postgres:// URL when set, selects the Postgres backend, and its
 * password never leaves the process: not in config errors, and every log line is scrubbed
 * of it. Until the Postgres repositories are wired in, the verbs that use the database
 * refuse to start with it instead of silently using SQLite.
 */
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, secretsOf } from '../src/config.js';
import { createLogger } from '../src/logger.js';

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
    ['a MySQL URL', 'mysql://bot:hunter2hunter2@db/visibility'],
    ['a file path', 'data/visibility.db'],
    ['an http URL', 'http://db.internal:5432/visibility'],
    ['no host', 'postgres:///visibility'],
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

describe('visibility-bot with DATABASE_URL, before the Postgres backend is wired in', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
    });

  it.each([['run-job', 'all'], ['serve'], ['check']])(
    '%s stops at start-up, saying so, without the password',
    (...args) => {
      const res = run(args, {
        ...full,
        DATABASE_URL: URL_WITH_PASSWORD,
        DATABASE_PATH: '/nonexistent/never.db',
      });
      expect(res.status).toBe(2);
      expect(res.stderr).toContain('the Postgres backend is not available in this version yet');
      expect(res.stderr).toContain('Unset DATABASE_URL');
      expect(res.stderr).not.toContain(PASSWORD);
      expect(res.stderr).not.toContain(encodeURIComponent(PASSWORD));
      expect(res.stdout).toBe('');
    },
  );
});
