/**
 * The RETENTION_* variables: their documented defaults, their values, and a clear message
 * for a value that is not a number of days; then `run-job housekeeping` as an operator runs
 * it, on a real SQLite file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createSqliteStore } from '../src/store/create-sqlite-store.js';
import { openDatabase } from '../src/store/open-database.js';

const full = {
  VISIBILITY_API_URL: 'http://127.0.0.1:9',
  VISIBILITY_API_KEY: 'sk_live_abcdefghijklmnopqrstuvwxyz123456',
  SLACK_BOT_TOKEN: 'xoxb-1234-5678-secretsecret',
  SLACK_SIGNING_SECRET: 'signing-secret-value-0001',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig('serve', { ...full, ...env });
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('retention settings', () => {
  it('default to 90 days, and a year for the audit log', () => {
    expect(loadConfig('serve', full).retention).toEqual({
      messagesDays: 90,
      pollDataDays: 90,
      jobRunsDays: 90,
      auditDays: 365,
    });
  });

  it('take a whole number of days each', () => {
    const c = loadConfig('run-job', {
      ...full,
      RETENTION_MESSAGES_DAYS: '30',
      RETENTION_POLL_DATA_DAYS: ' 14 ',
      RETENTION_JOB_RUNS_DAYS: '7',
      RETENTION_AUDIT_DAYS: '730',
    });
    expect(c.retention).toEqual({ messagesDays: 30, pollDataDays: 14, jobRunsDays: 7, auditDays: 730 });
  });

  it.each([
    ['RETENTION_MESSAGES_DAYS', '0', '90'],
    ['RETENTION_POLL_DATA_DAYS', '90d', '90'],
    ['RETENTION_JOB_RUNS_DAYS', '-5', '90'],
    ['RETENTION_AUDIT_DAYS', '36500', '365'],
    ['RETENTION_AUDIT_DAYS', '1.5', '365'],
  ])('refuses %s=%s and says what a good value looks like', (name, value, example) => {
    expect(problemsOf({ [name]: value })).toEqual([
      `${name} must be a whole number of days from 1 to 3650, e.g. ${example}.`,
    ]);
  });

  it('lists every bad one at once', () => {
    expect(problemsOf({ RETENTION_MESSAGES_DAYS: 'forever', RETENTION_AUDIT_DAYS: '0' })).toHaveLength(2);
  });
});

describe('run-job housekeeping', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...full, ...env },
      encoding: 'utf8',
    });

  it('exits 2 naming a bad retention variable', () => {
    const res = run(['run-job', 'housekeeping'], { RETENTION_AUDIT_DAYS: 'forever' });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('RETENTION_AUDIT_DAYS must be a whole number of days from 1 to 3650');
  });

  it('deletes what is past its retention and prints how many of each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'housekeeping-cli-'));
    try {
      const path = join(dir, 'visibility.db');
      const db = openDatabase(path);
      const store = createSqliteStore(db, { closesDatabase: false });
      const day = 86_400_000;
      for (const days of [40, 20, 1])
        await store.auditLog.record({
          userId: 'U1',
          action: 'subscribe',
          result: 'ok',
          atMs: Date.now() - days * day,
        });
      db.close();

      const res = run(['run-job', 'housekeeping'], { DATABASE_PATH: path, RETENTION_AUDIT_DAYS: '30' });
      expect(res.stderr).toBe('');
      expect(res.status).toBe(0);
      expect(res.stdout).toMatch(
        /^housekeeping: deleted 0 sent messages, 0 Slack request records, 0 expired snoozes, 0 old poll results, 0 job run records, 1 audit entry, 0 alert states \(\d+\.\d s\)\n$/,
      );
      const after = openDatabase(path);
      expect(after.prepare('SELECT COUNT(*) AS n FROM audit_log').get()).toEqual({ n: 2 });
      after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
