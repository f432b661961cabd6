import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/api/hash-api-key.js';
import { runCheck } from '../../src/cli/check.js';
import { loadConfig } from '../../src/config.js';
import { migrations } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open-database.js';
import { nextUtcMidnight, utcDay } from '../../src/utc-days.js';
import { useBackends } from '../e2e/service-harness.js';

const backends = useBackends();

async function check(overrides: Record<string, string> = {}) {
  const lines: string[] = [];
  const code = await runCheck(loadConfig('check', { ...backends.env, ...overrides }), {
    out: (l) => lines.push(l),
  });
  return { code, lines, text: lines.join('\n') };
}

describe('visibility-bot check', () => {
  it('prints one ✓ line per check and exits 0 when everything works', async () => {
    const { code, lines, text } = await check();
    expect(code).toBe(0);
    expect(lines.filter((l) => l.startsWith('✓'))).toHaveLength(4);
    expect(text).toContain('Configuration valid: HTTP mode');
    expect(text).toContain('API key works: it sees 5 brands: "Acme Analytics"');
    expect(text).toContain(
      'Slack auth.test: team "Local Workspace" (T0LOCAL01), bot user @visibility-bot (U0LOCALBOT)',
    );
    expect(text).toMatch(/✓ Database .* does not exist yet: serve and run-job will create it/);
    expect(backends.sim.requests.map((r) => r.path)).toEqual(['/get-brands']);
    expect(backends.slack.callsTo('auth.test')).toHaveLength(1);
  });

  it('exits 1 and says which check failed, without printing secrets', async () => {
    const badKey = 'sk_live_WrongKeyWrongKeyWrongKeyWrong1';
    const badToken = 'xoxb-wrong-token-for-check';
    const { code, text } = await check({ VISIBILITY_API_KEY: badKey, SLACK_BOT_TOKEN: badToken });
    expect(code).toBe(1);
    expect(text).toMatch(/✗ Brand Visibility API at .*: The API key was rejected/);
    expect(text).toContain('✗ Slack auth.test');
    expect(text).toContain('invalid_auth');
    expect(text).toContain('2 checks failed.');
    for (const secret of [badKey, badToken, backends.env['SLACK_SIGNING_SECRET']!])
      expect(text).not.toContain(secret);
  });

  it('leaves a missing database path missing, and says serve will create it', async () => {
    const folder = join(backends.dir, 'not', 'there');
    const path = join(folder, 'visibility.db');
    const { code, text } = await check({ DATABASE_PATH: path });
    expect(code).toBe(0);
    expect(text).toContain(`✓ Database ${path} does not exist yet: serve and run-job will create it`);
    expect(text).toContain(`below ${backends.dir}`);
    expect(existsSync(join(backends.dir, 'not'))).toBe(false);
  });

  it('reports an existing database at its schema version without touching it', async () => {
    const path = join(backends.dir, 'existing.db');
    openDatabase(path).close();
    const before = readFileSync(path);
    const { code, text } = await check({ DATABASE_PATH: path });
    expect(code).toBe(0);
    expect(text).toContain(`✓ Database writable: ${path} (schema version ${migrations.length})`);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('names DATABASE_PATH and what to do when the file is not a database, and still checks the API key', async () => {
    const path = join(backends.dir, 'notes.db');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    const { code, text } = await check({ DATABASE_PATH: path });
    expect(code).toBe(1);
    expect(text).toContain(`✗ DATABASE_PATH=${path} is not an SQLite database (file is not a database).`);
    expect(text).toContain('move this file away');
    expect(text).toContain('✓ API key works');
    expect(readFileSync(path, 'utf8')).toMatch(/^these are my notes/);
  });

  it('prints a reply written for Slack as plain terminal text', async () => {
    // A spent daily quota: the reply names the reset time as a Slack date token, which a
    // terminal shows by its fallback, without Slack's markup.
    const db = openDatabase(':memory:');
    db.prepare('INSERT INTO rate_daily_usage (key_hash, day, count) VALUES (?, ?, ?)').run(
      hashApiKey(backends.env['VISIBILITY_API_KEY']!),
      utcDay(Date.now()),
      1_000_000,
    );
    const lines: string[] = [];
    const code = await runCheck(loadConfig('check', backends.env), {
      out: (l) => lines.push(l),
      overrides: { db },
    });
    db.close();
    const text = lines.join('\n');
    expect(code).toBe(1);
    const reset = new Date(nextUtcMidnight(Date.now()));
    const month = reset.toLocaleString('en', { month: 'short', timeZone: 'UTC' });
    expect(text).toContain(
      `: The API key's daily request quota is spent. It resets ${month} ${reset.getUTCDate()}, ${reset.getUTCFullYear()} at 12:00 AM UTC.`,
    );
    expect(text).not.toMatch(/<!date|[<>]/);
    expect(backends.sim.requests).toEqual([]);
  });
});
