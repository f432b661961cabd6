/**
 * `serve`'s memory (`npm run bench -- memory`, or runServeMemoryBench() from bench/index.ts).
 * Numbers are printed, never asserted (README "Development"). Targets: ≤ 150 MB steady, ≤ 200 MB peak.
 *
 * The built CLI (dist/main.js, rebuilt first) runs `serve` as its own process, with the V8
 * settings the image runs it with (IMAGE_RUNTIME), against the
 * API simulator and the local Slack in this one. It answers 200 `/visibility` commands, one
 * after the other (citations history, the crawler overview, AI Pages, brands, the citation
 * feed). Three of the five replies carry a chart: with native charts (the default) Slack
 * draws it from a `data_visualization` block and serve draws nothing; with image charts
 * (the channel chose `charts=image`) each is a PNG rendered in the worker threads and
 * uploaded, shown in the reply by an image block.
 * Printed per variant: RSS once healthy, RSS once the 200 commands are done and the
 * process is quiet (the median of a few samples a second apart: "steady"), and the peak
 * (VmHWM), read from /proc/<pid>/status, worker threads included.
 *
 * Variants are rows of VARIANTS: each starts a fresh `serve` with its own environment, so
 * another way of drawing charts adds one row (and its own command mix, if it needs one).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { localStackEnv } from '../src/dev/demo/local-stack-config.js';
import { type LocalSlack, startLocalSlack } from '../src/dev/local-slack/index.js';
import { type RunningSimulator, startSimulator } from '../src/dev/simulator/index.js';
import { buildCli, CLI, envOf, IMAGE_RUNTIME, REPO } from './lib/build-cli.js';
import { percentile } from './lib/order-stats.js';

const COMMANDS = 200;
/** The enterprise plan's limits on both sides: pacing is not what this measures. */
const PLAN = { perMinute: 300, burst: 500, perDay: null };
/**
 * Long enough for the bot's pacing: the mix reads the citations endpoint faster than its
 * 60 reads a minute, so now and then a command waits its turn (the slowest is printed).
 */
const REPLY_TIMEOUT_MS = 120_000;
/** Commands in turn; citations history, crawler and aipages replies carry a chart. */
const MIX = [
  'citations "Acme Analytics" history --days 14',
  'crawler "Northwind Outfitters" 7d',
  'aipages "Acme Analytics"',
  'brands',
  'citations "Globex Corporation" feed',
];

interface Variant {
  name: string;
  /** Added to the environment `serve` starts with. */
  env: Record<string, string>;
  /** Commands sent before measuring (not counted). */
  setup: readonly string[];
  /** The chart block each chart-capable reply holds. */
  chartBlock: 'data_visualization' | 'image';
}

const VARIANTS: readonly Variant[] = [
  { name: 'native charts', env: {}, setup: [], chartBlock: 'data_visualization' },
  {
    name: 'image charts',
    env: {},
    setup: ['subscribe "Acme Analytics" alerts', 'settings "Acme Analytics" charts=image'],
    chartBlock: 'image',
  },
];

interface MemoryFigures {
  name: string;
  healthyMb: number;
  steadyMb: number;
  peakMb: number;
  commands: number;
  charts: number;
  failed: number;
  slowestMs: number;
}

/** VmRSS and VmHWM (peak) of `pid`, in MB; undefined off Linux. */
function rss(pid: number): { rssMb: number; peakMb: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function startServe(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...IMAGE_RUNTIME.flags, CLI, 'serve'], {
    cwd: REPO,
    env: envOf(IMAGE_RUNTIME, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const found = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${out}`)));
  });
  for (let i = 0; i < 3000; i++) {
    const health = await fetch(`${url}/healthz`).then(
      (r) => r.json() as Promise<{ slack?: { connected?: boolean } }>,
    );
    if (health.slack?.connected) return { child, url };
    await sleep(10);
  }
  throw new Error('serve never connected to the local Slack');
}

interface Reply {
  blocks?: Array<{ type?: string; elements?: Array<{ action_id?: string; value?: string }> }>;
}

/** Sends `text` and waits for its first reply; undefined when none came back accepted. */
async function command(slack: LocalSlack, appUrl: string, text: string): Promise<Reply | undefined> {
  const sent = await slack.slashCommand(appUrl, { text });
  const post = await slack
    .waitFor(() => slack.responsesFor(sent.responseUrlId).find((p) => p.status === 200), REPLY_TIMEOUT_MS)
    .catch(() => undefined);
  return post ? (post.body as Reply) : undefined;
}

/** Sends the commands one after the other; counts the replies that came with their chart. */
async function drive(
  slack: LocalSlack,
  appUrl: string,
  chartBlock: Variant['chartBlock'],
): Promise<{ charts: number; failed: number; slowestMs: number }> {
  let charts = 0;
  let failed = 0;
  let slowestMs = 0;
  for (let i = 0; i < COMMANDS; i++) {
    const sentAt = performance.now();
    const reply = await command(slack, appUrl, MIX[i % MIX.length]!);
    slowestMs = Math.max(slowestMs, performance.now() - sentAt);
    if (!reply) failed += 1;
    else if ((reply.blocks ?? []).some((b) => b.type === chartBlock)) charts += 1;
  }
  return { charts, failed, slowestMs };
}

async function measureVariant(
  variant: Variant,
  stack: { sim: RunningSimulator; slack: LocalSlack },
): Promise<MemoryFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'visibility-bench-memory-'));
  const env = {
    PATH: process.env['PATH'] ?? '',
    ...localStackEnv({ ...stack, dir }, 'info', { VISIBILITY_API_PLAN: 'enterprise' }),
    ...variant.env,
  };
  const { child, url } = await startServe(env);
  try {
    const pid = child.pid!;
    const appUrl = `${url}/slack/events`;
    for (const text of variant.setup)
      if (!(await command(stack.slack, appUrl, text))) throw new Error(`setup failed: ${text}`);
    const healthy = rss(pid);
    const { charts, failed, slowestMs } = await drive(stack.slack, appUrl, variant.chartBlock);
    // Quiet for a moment (uploads settled, idle chart threads parked), then a few samples.
    await sleep(2_000);
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      samples.push(rss(pid)?.rssMb ?? Number.NaN);
      await sleep(1_000);
    }
    return {
      name: variant.name,
      healthyMb: healthy?.rssMb ?? Number.NaN,
      steadyMb: percentile(samples, 50),
      peakMb: rss(pid)?.peakMb ?? Number.NaN,
      commands: COMMANDS,
      charts,
      failed,
      slowestMs,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (x: number) => (Number.isNaN(x) ? '—' : `${x.toFixed(0)} MB`);

export async function runServeMemoryBench(): Promise<string[]> {
  buildCli();
  const loadAtStart = loadavg();
  const sim = await startSimulator({ plan: 'enterprise', limits: { ...PLAN, endpointPerMinute: 1_000_000 } });
  const slack = await startLocalSlack();
  try {
    const lines = [
      `serve (built CLI) answering ${COMMANDS} commands, 3 in 5 with a chart; RSS from /proc (worker threads included)`,
    ];
    for (const variant of VARIANTS) {
      slack.reset();
      const f = await measureVariant(variant, { sim, slack });
      lines.push(
        `${f.name.padEnd(14)} healthy ${mb(f.healthyMb)}, steady after ${f.commands} commands ${mb(f.steadyMb)} ` +
          `(target ≤ 150 MB), peak ${mb(f.peakMb)} (target ≤ 200 MB); ${f.charts} replies with their chart, ` +
          `slowest reply ${(f.slowestMs / 1000).toFixed(1)} s` +
          (f.failed > 0 ? `; ${f.failed} commands got no reply within ${REPLY_TIMEOUT_MS / 1000} s` : ''),
      );
    }
    const loadAtEnd = loadavg();
    lines.push(
      `load average (1/5/15 min): start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, end ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')}`,
    );
    return lines;
  } finally {
    await slack.close();
    await sim.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await runServeMemoryBench()) console.log(line);
}
