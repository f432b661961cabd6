/**
 * `demo --services-only`: the simulator and the local Slack alone, and the real `serve`
 * configured with exactly the variables it prints. A command typed into it reaches the
 * bot and its reply comes back; what `run-job` posts to the channel is echoed. A port in
 * use is reported with the flag to change it, not as a bare EADDRINUSE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDemoServices } from '../../src/cli/demo-services.js';
import { runJobCommand } from '../../src/cli/run-job.js';
import { runServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';

function capture() {
  let text = '';
  const write = (chunk: string) => {
    text += chunk;
  };
  return { stream: { write }, text: () => text };
}

async function listen(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const portOf = (s: Server) => (s.address() as AddressInfo).port;

describe('demo --services-only', () => {
  it('prints what serve needs; serve answers commands typed there, and run-job posts are echoed', async () => {
    const spare = await listen();
    const port = portOf(spare);
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    const dir = mkdtempSync(join(tmpdir(), 'visibility-services-'));
    const out = capture();
    const input = new PassThrough();
    const stopServices = new AbortController();
    const services = runDemoServices({
      simulatorPort: 0,
      slackPort: 0,
      appUrl: `http://127.0.0.1:${port}/slack/events`,
      stdout: out.stream,
      input,
      stop: stopServices.signal,
    });
    await expect.poll(() => out.text(), { timeout: 10_000 }).toContain('Ctrl+C stops.');
    const env = Object.fromEntries(
      [...out.text().matchAll(/^ {2}export (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    expect(Object.keys(env).sort()).toEqual([
      'DATABASE_PATH',
      'SLACK_API_URL',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'VISIBILITY_API_KEY',
      'VISIBILITY_API_URL',
    ]);
    const config = loadConfig('serve', { ...env, PORT: String(port), DATABASE_PATH: join(dir, 'v.db') });
    const stopServe = new AbortController();
    const listening = new Promise<void>((resolve) => {
      void runServe(config, {
        signal: stopServe.signal,
        handleSignals: false,
        overrides: { logger: silentLogger() },
        onListening: () => resolve(),
      });
    });
    try {
      await listening;
      input.write('brands\n');
      await expect.poll(() => out.text(), { timeout: 10_000 }).toContain('Acme Analytics');
      input.write('subscribe "Acme Analytics" digest\n');
      await expect.poll(() => out.text(), { timeout: 10_000 }).toMatch(/digest/i);
      // The channel hears who subscribed it, by name as Slack shows the mention.
      await expect.poll(() => out.text(), { timeout: 10_000 }).toMatch(/^\[C\w+\] @local\.user subscribed/m);
      expect(out.text()).not.toContain('<@U');
      const jobOut: string[] = [];
      const code = await runJobCommand(['digest'], config, {
        out: (l) => jobOut.push(l),
        err: (l) => jobOut.push(l),
        overrides: { logger: silentLogger() },
        handleSignals: false,
      });
      expect(code, jobOut.join('\n')).toBe(0);
      await expect.poll(() => out.text(), { timeout: 10_000 }).toMatch(/^\[C\w+\] .*Acme Analytics/m);
    } finally {
      stopServe.abort();
      input.end();
      stopServices.abort();
      expect(await services).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['simulator', '--port'],
    ['slack', '--slack-port'],
  ] as const)('reports a taken %s port with the flag to change it', async (which, flag) => {
    const taken = await listen();
    try {
      const err = capture();
      const code = await runDemoServices({
        simulatorPort: which === 'simulator' ? portOf(taken) : 0,
        slackPort: which === 'slack' ? portOf(taken) : 0,
        appUrl: 'http://127.0.0.1:1/slack/events',
        stdout: capture().stream,
        stderr: err.stream,
        input: new PassThrough(),
      });
      expect(code).toBe(1);
      expect(err.text()).toContain(`Port ${portOf(taken)}`);
      expect(err.text()).toContain(`${flag} N`);
      expect(err.text()).not.toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  });
});
