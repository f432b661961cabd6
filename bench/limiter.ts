/**
 * Limiter benchmark (`npx tsx bench/limiter.ts`, or runLimiterBench() from bench/index.ts).
 * Numbers are printed, never asserted (DESIGN.md).
 *
 * 1. Efficiency: 600 GET /get-brands through the real ApiClient against the simulator with
 *    compressed limits (1,200/min = 20/s, burst 30), paced by our limiter, by p-throttle and
 *    by Bottleneck configured as their READMEs suggest. Completion time is divided by the
 *    theoretical minimum, (calls − burst) ÷ rate = 28.5 s; 429s are counted at the
 *    simulator. The client does not retry 429s here, so a 429 is a failed call for all.
 * 2. Interactive wait with the background lane saturated: p50/p99 of the time interactive
 *    calls wait in acquire() while a few hundred background calls are queued.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Bottleneck from 'bottleneck';
import pThrottle from 'p-throttle';
import { ApiClient } from '../src/api/client.js';
import { hashApiKey } from '../src/api/hash-api-key.js';
import { createRateLimiter, unlimitedLimiter } from '../src/api/limiter/create-rate-limiter.js';
import type { Lane, RateLimiter } from '../src/api/limiter/types.js';
import { startSimulator } from '../src/simulator/index.js';
import { openDatabase } from '../src/store/open-database.js';

const CALLS = 600;
const PER_MINUTE = 1_200;
const BURST = 30;
const PER_SECOND = PER_MINUTE / 60;
const TOKEN_INTERVAL_MS = 1_000 / PER_SECOND;
const THEORETICAL_MS = ((CALLS - BURST) / PER_SECOND) * 1_000;
const SIM_LIMITS = { perMinute: PER_MINUTE, burst: BURST, perDay: null, endpointPerMinute: 100_000 };

interface RunResult {
  name: string;
  ms: number;
  ok: number;
  rateLimited: number;
}

type Pacer = (call: () => Promise<unknown>) => Promise<unknown>;

/** One run against a fresh simulator (fresh bucket): `makePacer` wraps each client call. */
async function run(
  name: string,
  limiterFor: (apiKey: string) => RateLimiter,
  makePacer: () => Pacer,
): Promise<RunResult> {
  const sim = await startSimulator({ limits: SIM_LIMITS });
  const limiter = limiterFor(sim.apiKey);
  const client = new ApiClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    limiter,
    retry: { max429Retries: 0 },
  });
  const pace = makePacer();
  try {
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: CALLS }, () => pace(() => client.getBrands({}, { lane: 'background' }))),
    );
    const ms = performance.now() - started;
    return {
      name,
      ms,
      ok: results.filter((r) => r.status === 'fulfilled').length,
      rateLimited: sim.requests.filter((r) => r.status === 429).length,
    };
  } finally {
    limiter.close();
    await client.close();
    await sim.close();
  }
}

/** Our limiter on a temporary SQLite file, with the simulator's compressed limits. */
function ourLimiter(dir: string, apiKey: string): RateLimiter {
  const db = openDatabase(join(dir, `bench-${Date.now()}-${Math.random()}.db`));
  const limiter = createRateLimiter({
    db,
    keyHash: hashApiKey(apiKey),
    plan: 'scale',
    limits: { perMinute: PER_MINUTE, burst: BURST, perDay: null },
    endpointPerMinute: null,
  });
  return {
    ...limiter,
    close() {
      limiter.close();
      db.close();
    },
  };
}

const direct: Pacer = (call) => call();

function formatRun(r: RunResult): string {
  const ratio = r.ok === CALLS ? (r.ms / THEORETICAL_MS).toFixed(3) : '  —  ';
  return `  ${r.name.padEnd(44)} ${(r.ms / 1000).toFixed(2).padStart(7)} s   ×${ratio}   ok ${String(r.ok).padStart(3)}   429s ${r.rateLimited}`;
}

/** Wraps a limiter to time each acquire(), per lane. */
function timed(inner: RateLimiter, waits: Record<Lane, number[]>): RateLimiter {
  return {
    ...inner,
    async acquire(endpoint, lane, signal) {
      const started = performance.now();
      await inner.acquire(endpoint, lane, signal);
      waits[lane].push(performance.now() - started);
    },
    observe: (e, o) => inner.observe(e, o),
    state: () => inner.state(),
    close: () => inner.close(),
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function interactiveWait(dir: string): Promise<string[]> {
  const BACKGROUND = 300;
  const INTERACTIVE = 40;
  const sim = await startSimulator({ limits: SIM_LIMITS });
  const waits: Record<Lane, number[]> = { interactive: [], background: [] };
  const limiter = timed(ourLimiter(dir, sim.apiKey), waits);
  const client = new ApiClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    limiter,
    retry: { max429Retries: 0 },
  });
  try {
    const background = Promise.allSettled(
      Array.from({ length: BACKGROUND }, () => client.getBrands({}, { lane: 'background' })),
    );
    const interactive: Promise<unknown>[] = [];
    await new Promise((r) => setTimeout(r, 2_000));
    for (let i = 0; i < INTERACTIVE; i++) {
      // People arrive at no particular phase of the token clock.
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      interactive.push(client.getBrands({}, { lane: 'interactive' }));
    }
    await Promise.allSettled(interactive);
    const backgroundQueued = limiter.state().lanes.background.queued;
    await background;
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    return [
      `Interactive wait with the background lane saturated (${BACKGROUND} background queued, ${INTERACTIVE} interactive calls, 20/s):`,
      `  interactive acquire wait  p50 ${ms(percentile(waits.interactive, 50))}   p99 ${ms(percentile(waits.interactive, 99))}   max ${ms(Math.max(...waits.interactive))}`,
      `  background  acquire wait  p50 ${ms(percentile(waits.background, 50))}   p99 ${ms(percentile(waits.background, 99))}`,
      `  token interval ${ms(TOKEN_INTERVAL_MS)}; background still queued when the last interactive call finished: ${backgroundQueued}; 429s: ${sim.requests.filter((r) => r.status === 429).length}`,
    ];
  } finally {
    limiter.close();
    await client.close();
    await sim.close();
  }
}

export async function runLimiterBench(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'limiter-bench-'));
  try {
    const runs: RunResult[] = [];
    runs.push(
      await run(
        'visibility-bot limiter (SQLite bucket)',
        (key) => ourLimiter(dir, key),
        () => direct,
      ),
    );
    runs.push(
      await run('p-throttle {limit: 20, interval: 1000}', unlimitedLimiter, () => {
        const throttle = pThrottle({ limit: PER_SECOND, interval: 1_000 });
        return throttle((call: () => Promise<unknown>) => call());
      }),
    );
    runs.push(
      await run('p-throttle {limit: 1200, interval: 60000}', unlimitedLimiter, () => {
        const throttle = pThrottle({ limit: PER_MINUTE, interval: 60_000 });
        return throttle((call: () => Promise<unknown>) => call());
      }),
    );
    runs.push(
      await run('Bottleneck reservoir 30 +5/250 ms, minTime 50', unlimitedLimiter, () => {
        // The README's "reservoir increase" recipe, with minTime "for safety" as it advises.
        const bottleneck = new Bottleneck({
          reservoir: BURST,
          reservoirIncreaseAmount: PER_SECOND / 4,
          reservoirIncreaseInterval: 250,
          reservoirIncreaseMaximum: BURST,
          minTime: TOKEN_INTERVAL_MS,
        });
        return (call) => bottleneck.schedule(call);
      }),
    );
    return [
      `Limiter efficiency: ${CALLS} calls, ${PER_MINUTE}/min burst ${BURST}; theoretical minimum ${(THEORETICAL_MS / 1000).toFixed(1)} s`,
      `  ${'pacer'.padEnd(44)} ${'time'.padStart(9)}   ×min    calls  429s`,
      ...runs.map(formatRun),
      '',
      ...(await interactiveWait(dir)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runLimiterBench()) console.log(line);
}
