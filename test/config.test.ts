import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const full = {
  VISIBILITY_API_URL: 'http://127.0.0.1:4010',
  VISIBILITY_API_KEY: 'sk_live_abcdefghijklmnopqrstuvwxyz123456',
  SLACK_BOT_TOKEN: 'xoxb-1234-5678-secretsecret',
  SLACK_SIGNING_SECRET: 'signing-secret-value-0001',
};

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig('serve', full);
    expect(c).toMatchObject({
      apiPlan: 'scale',
      slackApiUrl: 'https://slack.com/api/',
      port: 3000,
      databasePath: 'data/visibility.db',
      adminUsers: [],
      defaultTimezone: 'UTC',
      logLevel: 'info',
      opsChannel: undefined,
      slackAppToken: undefined,
    });
  });

  it.each(['VISIBILITY_API_URL', 'VISIBILITY_API_KEY', 'SLACK_BOT_TOKEN'])(
    'names %s when it is missing, with what to set',
    (name) => {
      const env: Record<string, string> = { ...full };
      delete env[name];
      for (const verb of ['serve', 'run-job'] as const) {
        const problems = problemsOf(() => loadConfig(verb, env));
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(new RegExp(`^${name} is not set: set `));
      }
      // check runs without it, and knows which part of the setup it leaves unchecked.
      const part = name === 'SLACK_BOT_TOKEN' ? 'slack' : 'api';
      expect(loadConfig('check', env).notConfigured).toEqual({
        [part]: [expect.stringMatching(new RegExp(`^${name} is not set: set `))],
      });
    },
  );

  it('check needs nothing; each part of the setup not configured says what to set', () => {
    const config = loadConfig('check', {});
    expect(config.notConfigured).toEqual({
      api: [
        'VISIBILITY_API_URL is not set: set it to the base URL of the Brand Visibility API, e.g. https://api.example.com/v1.',
        'VISIBILITY_API_KEY is not set: set it to your API key (sk_live_…), created on the Scale plan or higher.',
      ],
      slack: [
        `SLACK_BOT_TOKEN is not set: set it to the bot token (xoxb-…) from your Slack app's "OAuth & Permissions" page.`,
      ],
    });
    expect(loadConfig('check', { ...full, SLACK_BOT_TOKEN: '  ' }).notConfigured).toEqual({
      slack: [expect.stringMatching(/^SLACK_BOT_TOKEN is not set/)],
    });
    expect(loadConfig('serve', full).notConfigured).toEqual({});
    // A value that is set but malformed is still a configuration problem.
    expect(problemsOf(() => loadConfig('check', { SLACK_BOT_TOKEN: 'placeholder' }))).toEqual([
      'SLACK_BOT_TOKEN must be a bot token starting with xoxb-.',
    ]);
  });

  it('serve needs a signing secret or an app token; run-job does not', () => {
    const { SLACK_SIGNING_SECRET: _s, ...env } = full;
    expect(problemsOf(() => loadConfig('serve', env))[0]).toMatch(/SLACK_SIGNING_SECRET.*SLACK_APP_TOKEN/);
    expect(() => loadConfig('serve', { ...env, SLACK_APP_TOKEN: 'xapp-1-A-1-abcdef' })).not.toThrow();
    expect(() => loadConfig('run-job', env)).not.toThrow();
  });

  it('simulator and demo need nothing', () => {
    expect(() => loadConfig('simulator', {})).not.toThrow();
    expect(() => loadConfig('demo', {})).not.toThrow();
  });

  it('reports every malformed value at once without echoing secrets', () => {
    const env = {
      ...full,
      SLACK_BOT_TOKEN: 'xoxp-user-token-should-not-print',
      VISIBILITY_API_PLAN: 'gold',
      PORT: '99999',
      DEFAULT_TIMEZONE: 'Mars/Olympus',
      SLACK_ADMIN_USERS: 'alice,bob',
      LOG_LEVEL: 'loud',
    };
    const problems = problemsOf(() => loadConfig('run-job', env));
    expect(problems).toHaveLength(6);
    const text = problems.join('\n');
    expect(text).toContain('SLACK_BOT_TOKEN must be a bot token starting with xoxb-');
    expect(text).toContain('VISIBILITY_API_PLAN must be one of scale, enterprise, test');
    expect(text).toContain('PORT must be a whole number');
    expect(text).toContain('DEFAULT_TIMEZONE must be an IANA time zone');
    expect(text).toContain('SLACK_ADMIN_USERS must be comma-separated Slack user IDs');
    expect(text).not.toContain('xoxp-user-token-should-not-print');
  });

  it('says for each malformed field what a good value looks like, the first rule it breaks', () => {
    const problems = problemsOf(() =>
      loadConfig('serve', {
        VISIBILITY_API_URL: 'ftp://example.com',
        VISIBILITY_API_KEY: 'short',
        SLACK_BOT_TOKEN: 'xoxb-has a space',
        SLACK_SIGNING_SECRET: 'with space in it',
        SLACK_APP_TOKEN: 'xoxb-not-an-app-token',
        SLACK_API_URL: 'not a url',
        PORT: '-1',
        DATABASE_PATH: ' ',
        SLACK_OPS_CHANNEL: '#general',
        METRICS_PORT: '65536',
        METRICS_HOST: 'local host',
        HEALTH_SLACK_GRACE_SECONDS: '5m',
        RETENTION_MESSAGES_DAYS: '0',
        RETENTION_AUDIT_DAYS: '3651',
      }),
    );
    expect(problems).toEqual([
      'VISIBILITY_API_URL must be an http(s) URL, e.g. https://api.example.com/v1.',
      'VISIBILITY_API_KEY looks too short to be an API key.',
      'SLACK_BOT_TOKEN must not contain spaces.',
      'SLACK_SIGNING_SECRET must not contain spaces.',
      'SLACK_APP_TOKEN must be an app-level token starting with xapp-.',
      'SLACK_API_URL must be an http(s) URL such as https://slack.com/api/.',
      'PORT must be a whole number from 0 to 65535.',
      'SLACK_OPS_CHANNEL must be a channel ID such as C012ABCDEF.',
      'METRICS_PORT must be a whole number from 0 to 65535.',
      'METRICS_HOST must be an address to listen on, such as 127.0.0.1 or ::1.',
      'HEALTH_SLACK_GRACE_SECONDS must be a whole number of seconds, e.g. 300.',
      'RETENTION_MESSAGES_DAYS must be a whole number of days from 1 to 3650, e.g. 90.',
      'RETENTION_AUDIT_DAYS must be a whole number of days from 1 to 3650, e.g. 365.',
    ]);
  });

  it('reads numbers, lists and names as written, trimmed', () => {
    const c = loadConfig('serve', {
      ...full,
      PORT: ' 0 ',
      METRICS_PORT: '65535',
      METRICS_HOST: '::1',
      HEALTH_SLACK_GRACE_SECONDS: '0',
      RETENTION_JOB_RUNS_DAYS: '3650',
      DEFAULT_TIMEZONE: 'Europe/Berlin',
      SLACK_OPS_CHANNEL: 'C012ABCDEF',
      LOG_LEVEL: 'debug',
      SLACK_ADMIN_USERS: ',W0ABC,,',
    });
    expect(c).toMatchObject({
      port: 0,
      metricsPort: 65535,
      metricsHost: '::1',
      healthSlackGraceSeconds: 0,
      defaultTimezone: 'Europe/Berlin',
      opsChannel: 'C012ABCDEF',
      logLevel: 'debug',
      adminUsers: ['W0ABC'],
    });
    expect(c.retention.jobRunsDays).toBe(3650);
  });

  it('parses admin users and the plan', () => {
    const c = loadConfig('run-job', {
      ...full,
      SLACK_ADMIN_USERS: ' U01ABC , U02DEF',
      VISIBILITY_API_PLAN: 'test',
    });
    expect(c.adminUsers).toEqual(['U01ABC', 'U02DEF']);
    expect(c.apiPlan).toBe('test');
  });
});

describe('visibility-bot CLI', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
    });

  it('exits 2 with one readable message naming each missing variable', () => {
    const res = run(['run-job', 'all'], { VISIBILITY_API_KEY: full.VISIBILITY_API_KEY });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('VISIBILITY_API_URL is not set');
    expect(res.stderr).toContain('SLACK_BOT_TOKEN is not set');
    expect(res.stderr).not.toContain(full.VISIBILITY_API_KEY);
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('exits 2 on an unknown verb with usage', () => {
    const res = run(['launch'], {});
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('Unknown command "launch"');
    expect(res.stderr).toContain('run-job <citations|crawler|ai-pages|digest|weekly|housekeeping|all>');
  });
});
