/**
 * `visibility-bot simulator [--port N]`: argument handling, what it prints, and a clean
 * stop on SIGTERM in a real child process.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSimulatorCommand } from '../../../src/cli/simulator.js';
import { SEED_BRANDS, SIMULATOR_API_KEY } from '../../../src/dev/simulator/index.js';

function capture() {
  let text = '';
  return {
    stream: {
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    },
    text: () => text,
  };
}

describe('runSimulatorCommand', () => {
  it.each([['--port'], ['--port', 'abc'], ['--port', '70000'], ['--port=-1'], ['--verbose']])(
    'rejects %j with usage on stderr and exit code 2',
    async (...args) => {
      const out = capture();
      const err = capture();
      expect(await runSimulatorCommand(args, { stdout: out.stream, stderr: err.stream })).toBe(2);
      expect(err.text()).toContain('Usage: visibility-bot simulator [--port N]');
      expect(out.text()).toBe('');
    },
  );

  it('says to use --port when the port is taken, instead of a bare EADDRINUSE', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const out = capture();
      const err = capture();
      expect(
        await runSimulatorCommand(['--port', String(port)], { stdout: out.stream, stderr: err.stream }),
      ).toBe(1);
      expect(err.text()).toContain(`Port ${port} is already in use`);
      expect(err.text()).toContain('visibility-bot simulator --port N');
      expect(err.text()).not.toContain('EADDRINUSE');
      expect(out.text()).toBe('');
    } finally {
      taken.close();
    }
  });

  it('--help prints usage and exits 0', async () => {
    const out = capture();
    expect(await runSimulatorCommand(['--help'], { stdout: out.stream })).toBe(0);
    expect(out.text()).toContain('--port N');
  });

  it('serves until stopped, printing the URL, the key and the control endpoint', async () => {
    const out = capture();
    const stop = new AbortController();
    const running = runSimulatorCommand(['--port', '0'], { stdout: out.stream, stop: stop.signal });
    await expect.poll(() => out.text(), { timeout: 5_000 }).toContain('Press Ctrl+C');
    const url = /listening on (http:\/\/\S+)/.exec(out.text())![1]!;
    expect(out.text()).toContain(SIMULATOR_API_KEY);
    expect(out.text()).toContain(`${url}/__control`);
    const res = await fetch(`${url}/get-brands?brand_id=${SEED_BRANDS.acme.id}`, {
      headers: { authorization: `Bearer ${SIMULATOR_API_KEY}` },
    });
    expect(res.status).toBe(200);
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/get-brands`)).rejects.toThrow();
  });

  it('stops cleanly on SIGTERM in its own process and exits 0', async () => {
    const script = fileURLToPath(new URL('./fixtures/run-simulator-command.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await expect.poll(() => stdout, { timeout: 15_000, interval: 50 }).toContain('Press Ctrl+C');
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    expect((await fetch(`${url}/__control/state`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('Simulator stopped.');
  });
});
