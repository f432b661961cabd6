import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { loadConfig } from '../../src/config.js';
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
    expect(text).toContain('Database writable');
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

  it('reports an unwritable database and still checks the API key', async () => {
    const { code, text } = await check({ DATABASE_PATH: join('/proc', 'visibility.db') });
    expect(code).toBe(1);
    expect(text).toContain('✗ Database /proc/visibility.db is not writable');
    expect(text).toContain('✓ API key works');
  });
});
