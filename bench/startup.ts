/**
 * Start-up benchmark (`npm run bench -- startup`, or runStartupBench() from bench/index.ts).
 * Numbers are printed, never asserted (README "Development").
 *
 * The built CLI (dist/main.js, rebuilt from the current sources first with `npm run
 * build`'s bundler), as operators run it, each process measured from spawn:
 * 1. `run-job all` with no subscriptions, to exit, vs `node -e 0` (target ≤ 3×).
 * 2. `serve` cold start to the first 200 from /healthz with Slack connected, vs the minimal
 *    Bolt app in bench/minimal-bolt-app.mjs (HTTP receiver, auth.test at start, one
 *    /healthz route) started the same way against the same local Slack (target ≤ 1.5×).
 * The variants run interleaved, round after round, so a burst of load hits all of them;
 * the machine's load average is printed with the medians. One more, untimed, run of
 * `run-job all` counts the modules it loads and its peak RSS (bench/lib/report-process.mjs).
 *
 * The CLI keeps V8's compiled code on disk (main.ts: Node's module compile cache, in the
 * system temp folder), so every run but the first after an install or upgrade starts
 * warm. The ratio is for those warm runs (the cache is filled before timing); `run-job`
 * is also timed cold, each run with an empty cache folder of its own, which is what the
 * first run after an upgrade (or on a read-only temp folder) costs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { localStackEnv } from '../src/dev/demo/local-stack-config.js';
import { startLocalSlack } from '../src/dev/local-slack/index.js';
import { startSimulator } from '../src/dev/simulator/index.js';
import { buildCli, CLI, REPO as repo } from './lib/build-cli.js';
import { percentile } from './lib/order-stats.js';

const ROUNDS = 9;
const MINIMAL_BOLT_APP = join(repo, 'bench/minimal-bolt-app.mjs');
const REPORT_PROCESS = join(repo, 'bench/lib/report-process.mjs');

/** Modules loaded and peak RSS of one run of `args` (not timed). */
function processReport(args: string[], env: Record<string, string>): { modules: number; maxRssMb: number } {
  const run = spawnSync(process.execPath, ['--import', REPORT_PROCESS, ...args], { cwd: repo, env });
  const line = /PROCESS-REPORT (\{.*\})/.exec(run.stderr.toString('utf8'))?.[1];
  return line ? (JSON.parse(line) as { modules: number; maxRssMb: number }) : { modules: -1, maxRssMb: -1 };
}

interface Timed {
  ms: number;
  ok: boolean;
}

/** Spawn to exit. */
function timeToExit(args: string[], env: Record<string, string>): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repo, env, stdio: 'ignore' });
    child.on('close', (code) => resolve({ ms: performance.now() - started, ok: code === 0 }));
  });
}

/** Spawn to the first healthy /healthz (the URL is read from the process's output). */
function timeToHealthy(args: string[], env: Record<string, string>, healthy: (body: string) => boolean) {
  const started = performance.now();
  return new Promise<Timed>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let polling = false;
    const finish = (ok: boolean) => {
      const ms = performance.now() - started;
      child.kill('SIGTERM');
      child.once('close', () => resolve({ ms, ok }));
    };
    const poll = async (url: string) => {
      for (let i = 0; i < 3000; i++) {
        try {
          const res = await fetch(`${url}/healthz`);
          const body = await res.text();
          if (res.status === 200 && healthy(body)) return finish(true);
        } catch {
          // Not listening yet.
        }
        await sleep(2);
      }
      finish(false);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const url = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
      if (url && !polling) {
        polling = true;
        void poll(url);
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
  });
}

const median = (xs: readonly Timed[]) =>
  percentile(
    xs.filter((x) => x.ok).map((x) => x.ms),
    50,
  );
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

export async function runStartupBench(): Promise<string[]> {
  buildCli();
  const loadAtStart = loadavg();
  const sim = await startSimulator();
  const slack = await startLocalSlack();
  const dir = mkdtempSync(join(tmpdir(), 'visibility-bench-startup-'));
  try {
    const env = {
      PATH: process.env['PATH'] ?? '',
      ...localStackEnv({ sim, slack, dir }, 'info'),
    };
    const main = CLI;
    // The database exists (and is migrated) before the first timed run, as in production.
    await timeToExit([main, 'run-job', 'all'], env);

    const bare: Timed[] = [];
    const runJob: Timed[] = [];
    const runJobCold: Timed[] = [];
    const serve: Timed[] = [];
    const bolt: Timed[] = [];
    const slackUp = (body: string) =>
      (JSON.parse(body) as { slack?: { connected?: boolean } }).slack?.connected === true;
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await timeToExit(['-e', '0'], env));
      runJob.push(await timeToExit([main, 'run-job', 'all'], env));
      const emptyCache = { ...env, NODE_COMPILE_CACHE: join(dir, `compile-cache-${round}`) };
      runJobCold.push(await timeToExit([main, 'run-job', 'all'], emptyCache));
      serve.push(await timeToHealthy([main, 'serve'], env, slackUp));
      bolt.push(await timeToHealthy([MINIMAL_BOLT_APP], env, () => true));
    }
    const failed = [bare, runJob, runJobCold, serve, bolt].flat().filter((t) => !t.ok).length;
    const [b, r, s, m] = [median(bare), median(runJob), median(serve), median(bolt)];
    const rc = median(runJobCold);
    const loadAtEnd = loadavg();
    const report = processReport([main, 'run-job', 'all'], env);
    return [
      `built CLI (dist/main.js), ${ROUNDS} interleaved rounds, medians${failed ? `; ${failed} runs failed and are left out` : ''}`,
      `node -e 0:                          ${fmt(b)}`,
      `run-job all (no subscriptions):     ${fmt(r)}   ratio ${(r / b).toFixed(2)}× (target ≤ 3×; compile cache warm)`,
      `  cold (empty compile cache):       ${fmt(rc)}   ratio ${(rc / b).toFixed(2)}×`,
      `  it loads ${report.modules} modules; peak RSS ${report.maxRssMb.toFixed(0)} MB`,
      `minimal Bolt app, start → healthy:  ${fmt(m)}`,
      `serve, cold start → healthy:        ${fmt(s)}   ratio ${(s / m).toFixed(2)}× (target ≤ 1.5×)`,
      `load average (1/5/15 min): start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, end ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')}`,
    ];
  } finally {
    await slack.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await runStartupBench()) console.log(line);
}
