import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
import { captureLogger, spawnServe, useBackends } from './service-harness.js';

const backends = useBackends();

describe('runServe in-process', () => {
  it('finishes an acked command before it resolves on abort, then stops listening', async () => {
    const config = loadConfig('serve', backends.env);
    const lines: string[] = [];
    const abort = new AbortController();
    let url = '';
    const listening = new Promise<void>((resolve) => {
      void runServe(config, {
        signal: abort.signal,
        handleSignals: false,
        overrides: { logger: captureLogger(config, lines) },
        onListening: (u) => {
          url = u;
          resolve();
        },
      }).then((code) => exits.push(code));
    });
    const exits: number[] = [];
    await listening;

    // The API answers slowly: the command is still running when the shutdown starts.
    backends.sim.control.injectFault({ kind: 'latency', ms: 400, path: '/get-brands' });
    const res = await backends.slack.slashCommand(`${url}/slack/events`, { text: 'brands' });
    expect(res.status).toBe(200);
    expect(backends.slack.responsesFor(res.responseUrlId)).toHaveLength(0);
    abort.abort();

    await backends.slack.waitFor(() => exits.length > 0, 5000);
    expect(exits).toEqual([0]);
    // The reply was delivered before runServe resolved.
    const [reply] = backends.slack.responsesFor(res.responseUrlId);
    expect(reply?.status).toBe(200);
    expect(JSON.stringify(reply?.body)).toContain('Acme Analytics');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect(lines.some((l) => l.includes('"stopped"'))).toBe(true);
  });

  it('returns 1 with a clear reason when Slack refuses the bot token', async () => {
    const config = loadConfig('serve', { ...backends.env, SLACK_BOT_TOKEN: 'xoxb-not-the-right-token' });
    const lines: string[] = [];
    const code = await runServe(config, {
      handleSignals: false,
      overrides: { logger: captureLogger(config, lines) },
    });
    expect(code).toBe(1);
    expect(lines.join('')).toContain('Slack refused auth.test (invalid_auth)');
    expect(lines.join('')).not.toContain('xoxb-not-the-right-token');
  });
});

describe('the real process', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('serves, then exits 0 on SIGTERM', async () => {
    const serve = await spawnServe(backends);
    child = serve.child;
    const { url, exited } = serve;

    const res = await backends.slack.slashCommand(`${url}/slack/events`, { text: 'help' });
    expect(res.status).toBe(200);
    await backends.slack.waitFor(() => backends.slack.responsesFor(res.responseUrlId)[0], 5000);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    serve.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(serve.output()).toContain('shutting down');
    for (const secret of [backends.sim.apiKey, backends.slack.botToken, backends.slack.signingSecret])
      expect(serve.output()).not.toContain(secret);
  }, 30_000);
});
