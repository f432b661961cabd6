/**
 * `run-job`, `check` and `simulator` start lean: none of them loads Bolt, Express, the
 * OAuth package or the Socket Mode client (only `serve` and `demo` need those), and
 * `run-job` with nothing to do loads neither undici, the Slack Web API client nor
 * prom-client (each is loaded on first use). Each runs as a real CLI process with a
 * preloaded probe that lists, at exit, which of those packages reached the module cache;
 * control runs that load them prove the probe sees them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBackends } from '../e2e/service-harness.js';

const backends = useBackends();
const repo = fileURLToPath(new URL('../..', import.meta.url));
const probe = fileURLToPath(new URL('./fixtures/report-loaded-packages.mjs', import.meta.url));
const chartProbe = fileURLToPath(new URL('./fixtures/report-chart-packages.mjs', import.meta.url));

/** Which chart packages the main thread of `node -e <code>` loads. */
function chartPackagesLoadedBy(code: string): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', chartProbe, '--input-type=module', '-e', code],
    {
      cwd: repo,
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'fatal' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  return new Promise((resolve) =>
    child.on('close', () => {
      const line = /LOADED-CHART (\[.*\])/.exec(err)?.[1];
      resolve(line ? (JSON.parse(line) as string[]) : [`(probe did not report) ${err}`]);
    }),
  );
}

interface Run {
  code: number | null;
  out: string;
  heavy: string[];
  lazy: string[];
}

function start(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', probe, ...args], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'fatal', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const done = new Promise<Run>((resolve) => {
    child.on('close', (code) => {
      const list = (name: string) => {
        const line = new RegExp(`LOADED-${name} (\\[.*\\])`).exec(out)?.[1];
        return line ? (JSON.parse(line) as string[]) : ['(probe did not report)'];
      };
      resolve({ code, out, heavy: list('HEAVY'), lazy: list('LAZY') });
    });
  });
  return { child, done };
}

describe('lean start-up', () => {
  it('the probe sees Bolt when the Slack app is loaded (control)', async () => {
    const run = await start(['-e', "await import('./src/slack/create-slack-app.ts')", '--input-type=module'])
      .done;
    expect(run.heavy).toEqual(expect.arrayContaining(['@slack/bolt', '@slack/socket-mode', 'express']));
  });

  it('the probe sees the packages loaded on first use once they are used (control)', async () => {
    const run = await start([
      '-e',
      "const { loadUndici } = await import('./src/api/lazy-undici.ts'); loadUndici(); const { createMetrics } = await import('./src/metrics.ts'); createMetrics().registry;",
      '--input-type=module',
    ]).done;
    expect(run.lazy).toEqual(['prom-client', 'undici']);
  });

  it('run-job with nothing to do loads none of Bolt, Express, OAuth, Socket Mode, undici, the Web API client or prom-client', async () => {
    const run = await start(['src/main.ts', 'run-job', 'all'], {
      ...backends.env,
      DATABASE_PATH: `${backends.dir}/lean.db`,
    }).done;
    expect(run.code, run.out).toBe(0);
    expect(run.heavy).toEqual([]);
    expect(run.lazy).toEqual([]);
  });

  it('check loads none of them', async () => {
    const run = await start(['src/main.ts', 'check'], {
      ...backends.env,
      DATABASE_PATH: `${backends.dir}/lean.db`,
    }).done;
    expect(run.out).toContain('✓ API key works');
    expect(run.heavy).toEqual([]);
  });

  it('simulator loads none of them', async () => {
    const { child, done } = start(['src/main.ts', 'simulator', '--port', '0']);
    await new Promise<void>((resolve) => {
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString('utf8').includes('listening on')) resolve();
      });
    });
    child.kill('SIGTERM');
    const run = await done;
    expect(run.out, `exit ${run.code}`).toContain('Simulator stopped.');
    expect(run.heavy).toEqual([]);
  });

  // Charts render in worker threads (createAppDeps): the serving thread never pays for the
  // chart packages (about a second and 40 MB), and `check` does not either.
  it('serve, run-job and check keep the chart packages off the main thread', async () => {
    const control = await chartPackagesLoadedBy("await import('./src/charts/render-chart.ts')");
    expect(control).toEqual(['@resvg/resvg-js', 'vega', 'vega-lite']);
    const cli = await chartPackagesLoadedBy(
      "await import('./src/cli/serve.ts'); await import('./src/cli/run-job.ts'); await import('./src/cli/check.ts')",
    );
    expect(cli).toEqual([]);
  });
});
