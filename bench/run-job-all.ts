/**
 * End-to-end jobs benchmark (`npx tsx bench/run-job-all.ts [--quick]`, or from
 * bench/index.ts): `run-job all` as the CLI runs it (runJobs over the real app deps: API
 * client, shared SQLite limiter, store) for N subscribed brands of the simulator at
 * Scale-shaped limits compressed in time (bucket of 100 refilled at 60 per "minute",
 * 60 per "minute" per read endpoint, a "minute" of `windowMs`). Delivery to Slack is left
 * out (deliver: false): it is paced by Slack's per-channel limit, not by the key.
 *
 * Wall time is divided by the greedy theoretical minimum for the same calls under the
 * same limits (bench/lib/greedy-minimum.ts: zero latency, any endpoint order), and the
 * simulator counts 429s. Numbers are printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAppDeps } from '../src/app-deps.js';
import { localStackConfig } from '../src/dev/demo/local-stack-config.js';
import { startLocalSlack } from '../src/dev/local-slack/index.js';
import { startSimulator } from '../src/dev/simulator/index.js';
import { runJobs } from '../src/jobs/run-jobs.js';
import { greedyMinimumMs } from './lib/greedy-minimum.js';

const PER_MINUTE = 60;
const BURST = 100;
const ENDPOINT_PER_MINUTE = 60;
const CHANNELS = 20;

export interface RunJobBenchOptions {
  quick?: boolean;
  /** Brand counts to run (default 50 and 200; quick: 50). */
  brands?: number[];
  /** Length of the compressed "minute" (default 6000 ms: 10 calls/s, 10× Scale). */
  windowMs?: number;
}

interface Measured {
  brands: number;
  calls: number;
  wallMs: number;
  minimumMs: number;
  rateLimited: number;
  jobs: string;
}

async function measure(brands: number, windowMs: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'run-job-bench-'));
  const sim = await startSimulator({
    brands,
    limits: { perMinute: PER_MINUTE, burst: BURST, perDay: null, endpointPerMinute: null, windowMs },
  });
  const slack = await startLocalSlack();
  const config = localStackConfig({ sim, slack, dir }, 'silent');
  const deps = createAppDeps(config, { limiter: { windowMs } });
  try {
    // Subscriptions as the subscribe command leaves them (read from the service's list,
    // not counted: the bench measures the jobs).
    const list = await deps.api.getBrands({}, { lane: 'background' });
    const subs = deps.store.subscriptions;
    const now = Date.now();
    for (const [i, b] of list.brands.entries()) {
      const channelId = `C${String(i % CHANNELS).padStart(3, '0')}BENCH`;
      slack.addChannel({ id: channelId, name: `bench-${i % CHANNELS}`, isMember: true });
      await subs.upsert({ channelId, brandId: b.id, brandName: b.name, createdBy: 'U1', createdAtMs: now });
    }
    // A fresh bucket and fresh windows for the measured part.
    await new Promise((r) => setTimeout(r, windowMs * 2));
    const before = sim.requests.length;
    const started = performance.now();
    const summary = await runJobs(deps, 'all', { owner: 'bench', deliver: false });
    const wallMs = performance.now() - started;
    const requests = sim.requests.slice(before);
    const sent = requests.filter((r) => r.status !== 429);
    const minimumMs = greedyMinimumMs(
      sent.map((r) => `${r.method} ${r.path}`),
      {
        burst: BURST,
        refillPerMs: PER_MINUTE / windowMs,
        windowMs,
        windowLimit: () => ENDPOINT_PER_MINUTE,
      },
    );
    return {
      brands,
      calls: sent.length,
      wallMs,
      minimumMs,
      rateLimited: requests.length - sent.length,
      jobs: summary.jobs.map((j) => `${j.job} ${(j.durationMs / 1000).toFixed(1)} s`).join(', '),
    };
  } finally {
    await deps.close();
    await slack.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runRunJobBench(options: RunJobBenchOptions = {}): Promise<string[]> {
  const windowMs = options.windowMs ?? 6_000;
  const counts = options.brands ?? (options.quick ? [50] : [50, 200]);
  const lines = [
    `run-job all, Scale-shaped limits compressed: bucket ${BURST} refilled at ${PER_MINUTE} per ${windowMs} ms, ${ENDPOINT_PER_MINUTE} per ${windowMs} ms per endpoint; delivery excluded`,
  ];
  for (const n of counts) {
    const load = loadavg()[0]!;
    const m = await measure(n, windowMs);
    lines.push(
      `  N=${String(m.brands).padStart(4)}: ${m.calls} calls in ${(m.wallMs / 1000).toFixed(1)} s; greedy minimum ${(m.minimumMs / 1000).toFixed(1)} s → ×${(m.wallMs / m.minimumMs).toFixed(3)}; 429s ${m.rateLimited}; load average ${load.toFixed(1)}`,
      `          ${m.jobs}`,
    );
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runRunJobBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
