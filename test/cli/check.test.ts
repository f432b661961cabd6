import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/api/hash-api-key.js';
import { runCheck } from '../../src/cli/check.js';
import { loadConfig } from '../../src/config.js';
import { migrations } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open-database.js';
import { nextUtcMidnight, utcDay } from '../../src/utc-days.js';
import { useBackends } from '../e2e/service-harness.js';
import { haveOpenssl, startSelfSignedTlsServer, type TlsServer } from '../helpers/self-signed-tls-server.js';
import { spawnCollecting } from '../helpers/spawn-collecting.js';

const backends = useBackends();
const repo = fileURLToPath(new URL('../..', import.meta.url));
const inCi = process.env['CI'] === 'true';
if (!haveOpenssl && !inCi) {
  console.warn(
    'check.test.ts: openssl not found, skipping the TLS test (it makes a self-signed certificate).',
  );
}

/** `check` on the backends' environment, with variables changed (undefined: unset). */
async function check(overrides: Record<string, string | undefined> = {}) {
  const lines: string[] = [];
  const code = await runCheck(loadConfig('check', { ...backends.env, ...overrides }), {
    out: (l) => lines.push(l),
  });
  return { code, lines, text: lines.join('\n') };
}

const host = (url: string) => new URL(url).host;

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

  it('exits 1 and says the API refused the key and Slack the token, without printing either', async () => {
    const badKey = 'sk_live_WrongKeyWrongKeyWrongKeyWrong1';
    const badToken = 'xoxb-wrong-token-for-check';
    const { code, lines, text } = await check({ VISIBILITY_API_KEY: badKey, SLACK_BOT_TOKEN: badToken });
    expect(code).toBe(1);
    expect(lines).toContain(
      `✗ Brand Visibility API at ${host(backends.sim.url)}: the API refused the key (HTTP 401): check VISIBILITY_API_KEY`,
    );
    expect(lines).toContain(
      `✗ Slack auth.test at ${host(backends.slack.url)}: Slack refused the token (invalid_auth): check SLACK_BOT_TOKEN, the Bot User OAuth Token (xoxb-…) of the installed app`,
    );
    expect(lines.at(-1)).toBe('2 checks failed.');
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

const API_UNSET = { VISIBILITY_API_URL: undefined, VISIBILITY_API_KEY: undefined };
const SLACK_UNSET = { SLACK_BOT_TOKEN: undefined, SLACK_SIGNING_SECRET: undefined, SLACK_API_URL: undefined };

describe('check checks what is configured and says what is not', () => {
  it('checks the API alone when Slack is not set up yet, and names what Slack needs', async () => {
    const { code, lines } = await check(SLACK_UNSET);
    expect(code).toBe(0);
    expect(lines[0]).toBe(`✓ Configuration valid: API ${host(backends.sim.url)} (plan scale)`);
    expect(lines[1]).toMatch(/^✓ Database /);
    expect(lines[2]).toMatch(/^✓ API key works: it sees 5 brands/);
    expect(lines[3]).toBe(
      `– Slack not checked: SLACK_BOT_TOKEN is not set: set it to the bot token (xoxb-…) from your Slack app's "OAuth & Permissions" page.`,
    );
    expect(lines[4]).toBe(
      'Everything checked works. Slack not checked (not configured yet: serve and run-job need it).',
    );
    expect(backends.slack.callsTo('auth.test')).toHaveLength(0);
  });

  it('checks Slack alone when the API is not set up yet', async () => {
    const { code, lines } = await check(API_UNSET);
    expect(code).toBe(0);
    expect(lines[0]).toBe(`✓ Configuration valid: HTTP mode, Slack ${host(backends.slack.url)}`);
    expect(lines[2]).toBe(
      '– Brand Visibility API not checked: VISIBILITY_API_URL is not set: set it to the base URL of the Brand Visibility API, e.g. https://api.example.com/v1. VISIBILITY_API_KEY is not set: set it to your API key (sk_live_…), created on the Scale plan or higher.',
    );
    expect(lines[3]).toMatch(/^✓ Slack auth.test: team "Local Workspace"/);
    expect(backends.sim.requests).toEqual([]);
  });

  it('names the one API variable missing when the other is set', async () => {
    const { code, lines } = await check({ ...SLACK_UNSET, VISIBILITY_API_KEY: undefined });
    expect(code).toBe(0);
    expect(lines).toContain(
      '– Brand Visibility API not checked: VISIBILITY_API_KEY is not set: set it to your API key (sk_live_…), created on the Scale plan or higher.',
    );
    expect(lines.at(-1)).toBe(
      'Everything checked works. Brand Visibility API and Slack not checked (not configured yet: serve and run-job need them).',
    );
  });

  it('with nothing set, still checks the database', async () => {
    const { code, lines } = await check({ ...API_UNSET, ...SLACK_UNSET });
    expect(code).toBe(0);
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      '✓ Configuration valid',
      expect.stringMatching(/^✓ Database /),
      '– Brand Visibility API not checked',
      '– Slack not checked',
      expect.stringMatching(/^Everything checked works\./),
    ]);
  });

  it('as the real CLI, with only the API variables set, exits 0 after checking the API', async () => {
    // Spawned, not spawnSync: the simulator answers from this process's event loop.
    const run = spawnCollecting(process.execPath, ['--import', 'tsx', 'src/main.ts', 'check'], {
      cwd: repo,
      env: {
        PATH: process.env['PATH'] ?? '',
        VISIBILITY_API_URL: backends.env['VISIBILITY_API_URL'],
        VISIBILITY_API_KEY: backends.env['VISIBILITY_API_KEY'],
        DATABASE_PATH: backends.env['DATABASE_PATH'],
      },
    });
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('✓ API key works: it sees 5 brands');
    expect(run.output()).toContain('– Slack not checked: SLACK_BOT_TOKEN is not set');
  });
});

describe('a failure names its cause', () => {
  it('unreachable: nothing listens on the port', async () => {
    const port = await closedPort();
    const { code, lines } = await check({
      VISIBILITY_API_URL: `http://127.0.0.1:${port}/v1`,
      SLACK_API_URL: `http://127.0.0.1:${port}/api/`,
    });
    expect(code).toBe(1);
    expect(lines).toContain(
      `✗ Brand Visibility API at 127.0.0.1:${port}: unreachable: nothing accepts connections there (connection refused); check VISIBILITY_API_URL, that the service runs, that this machine can reach 127.0.0.1 (a firewall or a proxy in the way?)`,
    );
    expect(lines).toContain(
      `✗ Slack auth.test at 127.0.0.1:${port}: unreachable: nothing accepts connections there (connection refused); check SLACK_API_URL, that the service runs, that this machine can reach 127.0.0.1 (a firewall or a proxy in the way?)`,
    );
  });

  it('DNS: the host name does not resolve', async () => {
    // .invalid never resolves (RFC 6761).
    const { code, lines } = await check({
      VISIBILITY_API_URL: 'https://api.no-such-host.invalid/v1',
      SLACK_API_URL: 'https://slack.no-such-host.invalid/api/',
    });
    expect(code).toBe(1);
    expect(lines).toContain(
      "✗ Brand Visibility API at api.no-such-host.invalid: DNS cannot find api.no-such-host.invalid: check the host name in VISIBILITY_API_URL and this machine's DNS",
    );
    expect(lines).toContain(
      "✗ Slack auth.test at slack.no-such-host.invalid: DNS cannot find slack.no-such-host.invalid: check the host name in SLACK_API_URL and this machine's DNS",
    );
  });

  it('something that is not the API answers at the URL', async () => {
    // The local Slack answers, but has no /get-brands.
    const { code, lines } = await check({ VISIBILITY_API_URL: backends.slack.url });
    expect(code).toBe(1);
    expect(lines.find((l) => l.startsWith('✗ Brand Visibility API'))).toMatch(
      /: something answers there, but not as the Brand Visibility API( \(HTTP \d+\))?: check the address in VISIBILITY_API_URL/,
    );
  });

  describe.skipIf(!haveOpenssl && !inCi)(
    'TLS (a server with a self-signed certificate, made by openssl)',
    () => {
      let tls: TlsServer;
      beforeAll(async () => {
        tls = await startSelfSignedTlsServer();
      });
      afterAll(async () => {
        await tls?.close();
      });

      it('says the certificate is not trusted, for the API and for Slack', async () => {
        const { code, lines } = await check({
          VISIBILITY_API_URL: `${tls.url}/v1`,
          SLACK_API_URL: `${tls.url}/api/`,
        });
        expect(code).toBe(1);
        const why =
          'TLS failed: its certificate is self-signed, so it is not trusted (if it is one of your own, point NODE_EXTRA_CA_CERTS at the authority that signed it)';
        expect(lines).toContain(`✗ Brand Visibility API at ${host(tls.url)}: ${why}`);
        expect(lines).toContain(`✗ Slack auth.test at ${host(tls.url)}: ${why}`);
      });
    },
  );
});

/** A local port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
