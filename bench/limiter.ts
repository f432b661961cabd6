/**
 * Limiter benchmark (`npx tsx bench/limiter.ts [--quick]`, or from bench/index.ts).
 * Numbers are printed, never asserted (README "Development").
 *
 * 1. Efficiency on a loaded machine: GET /get-brands through the real ApiClient against the
 *    simulator with compressed limits (3,000/min = 50/s, burst 50), paced by our limiter
 *    and by p-throttle and Bottleneck in every setting their READMEs document for a rate
 *    limit; the best setting of each peer (fewest 429s, then lowest median) is printed
 *    beside ours. Each round runs every pacer once on a fresh simulator while a load
 *    generator keeps every core busy (bench/lib/cpu-load.ts). Completion time is divided
 *    by the theoretical minimum, (calls − burst) ÷ rate; 429s are counted at the simulator
 *    (the client does not retry them here, so a 429 is a failed call for every pacer).
 * 2. Interactive wait with the background lane saturated: interactive calls arrive in
 *    bursts of 1, 2 and 5 at random phases of the token clock, while hundreds of background
 *    calls are queued; p50/p99 of the time they wait in acquire(), against one token interval.
 * 3. Replicas on Postgres: the same calls split over three limiters on three pools sharing
 *    one key's budget on a real Postgres server (the tests' embedded one, started here),
 *    under the same load; completion against the same minimum, 429s counted.
 * 4. Processes sharing one SQLite file (limiter-processes.ts): the spread of their grants
 *    against the shortest the limits allow.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Bottleneck from 'bottleneck';
import pThrottle from 'p-throttle';
import { ApiClient } from '../src/api/client.js';
import { hashApiKey } from '../src/api/hash-api-key.js';
import { createRateLimiter, unlimitedLimiter } from '../src/api/limiter/create-rate-limiter.js';
import type { Lane, RateLimiter } from '../src/api/limiter/types.js';
import { startSimulator } from '../src/dev/simulator/index.js';
import { migrations } from '../src/store/migrations/index.js';
import { openDatabase } from '../src/store/open-database.js';
import { createPool } from '../src/store/postgres/create-pool.js';
import { migratePostgres } from '../src/store/postgres/migrate-postgres.js';
import { createPgBudgetStore } from '../src/store/postgres/pg-budget-store.js';
import { createSqliteBudgetStore } from '../src/store/sqlite-budget-store.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import { startCpuLoad } from './lib/cpu-load.js';
import { percentile } from './lib/order-stats.js';
import { sqliteProcesses } from './limiter-processes.js';

const PER_SECOND = 50;
const PER_MINUTE = PER_SECOND * 60;
const BURST = 50;
const TOKEN_INTERVAL_MS = 1_000 / PER_SECOND;
const SIM_LIMITS = { perMinute: PER_MINUTE, burst: BURST, perDay: null, endpointPerMinute: 100_000 };
/** The efficiency target: a run within this ratio of the theoretical minimum. */
const TARGET_RATIO = 1.03;
const WARM_UP_CALLS = 2 * BURST;

export interface LimiterBenchOptions {
  /** Rounds of every pacer (default 10; quick 3). */
  rounds?: number;
  /** Calls per run (default 600; quick 300). */
  calls?: number;
  /** Bursts of each size in the interactive-wait part (default 30; quick 10). */
  bursts?: number;
  /** Keep every core busy during the efficiency runs (default true). */
  load?: boolean;
}

type Pacer = (call: () => Promise<unknown>) => Promise<unknown>;

interface PacerSpec {
  family: 'ours' | 'p-throttle' | 'Bottleneck';
  name: string;
  limiter: (dir: string, apiKey: string) => RateLimiter;
  pacer: () => Pacer;
}

interface RunResult {
  ms: number;
  ok: number;
  rateLimited: number;
}

const direct: Pacer = (call) => call();

/** Every documented way to express "50/s, burst 50" with each peer. */
function pacerSpecs(): PacerSpec[] {
  const none = () => unlimitedLimiter();
  const throttle = (options: Parameters<typeof pThrottle>[0]) => () => {
    const t = pThrottle(options);
    return t((call: () => Promise<unknown>) => call());
  };
  const bottleneck = (options: Bottleneck.ConstructorOptions) => () => {
    const b = new Bottleneck(options);
    return (call: () => Promise<unknown>) => b.schedule(call);
  };
  // Bottleneck's token-bucket recipe: a full reservoir topped up a quarter second at a time.
  const reservoirIncrease: Bottleneck.ConstructorOptions = {
    reservoir: BURST,
    reservoirIncreaseAmount: PER_SECOND / 4,
    reservoirIncreaseInterval: 250,
    reservoirIncreaseMaximum: BURST,
  };
  return [
    {
      family: 'ours',
      name: 'visibility-bot limiter (SQLite bucket)',
      limiter: ourLimiter,
      pacer: () => direct,
    },
    // p-throttle README: "limit: maximum calls within an interval", optionally `strict`.
    {
      family: 'p-throttle',
      name: `p-throttle {limit: ${PER_SECOND}, interval: 1000}`,
      limiter: none,
      pacer: throttle({ limit: PER_SECOND, interval: 1_000 }),
    },
    {
      family: 'p-throttle',
      name: `p-throttle {limit: ${PER_SECOND}, interval: 1000, strict}`,
      limiter: none,
      pacer: throttle({ limit: PER_SECOND, interval: 1_000, strict: true }),
    },
    {
      family: 'p-throttle',
      name: `p-throttle {limit: 1, interval: ${TOKEN_INTERVAL_MS}}`,
      limiter: none,
      pacer: throttle({ limit: 1, interval: TOKEN_INTERVAL_MS }),
    },
    // Bottleneck README: minTime alone; "reservoir refresh" for fixed windows; "reservoir
    // increase" for a token bucket, alone and with minTime "for safety".
    {
      family: 'Bottleneck',
      name: `Bottleneck {minTime: ${TOKEN_INTERVAL_MS}}`,
      limiter: none,
      pacer: bottleneck({ minTime: TOKEN_INTERVAL_MS }),
    },
    {
      family: 'Bottleneck',
      name: `Bottleneck reservoir ${BURST}, refresh ${BURST}/1000 ms`,
      limiter: none,
      pacer: bottleneck({
        reservoir: BURST,
        reservoirRefreshAmount: BURST,
        reservoirRefreshInterval: (BURST / PER_SECOND) * 1_000,
      }),
    },
    {
      family: 'Bottleneck',
      name: `Bottleneck reservoir ${BURST} +${PER_SECOND / 4}/250 ms`,
      limiter: none,
      pacer: bottleneck(reservoirIncrease),
    },
    {
      family: 'Bottleneck',
      name: `Bottleneck reservoir ${BURST} +${PER_SECOND / 4}/250 ms, minTime ${TOKEN_INTERVAL_MS}`,
      limiter: none,
      pacer: bottleneck({ ...reservoirIncrease, minTime: TOKEN_INTERVAL_MS }),
    },
  ];
}

/** One run against a fresh simulator (fresh bucket). */
async function run(spec: PacerSpec, dir: string, calls: number): Promise<RunResult> {
  const sim = await startSimulator({ limits: SIM_LIMITS });
  const limiter = spec.limiter(dir, sim.apiKey);
  const client = new ApiClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    limiter,
    retry: { max429Retries: 0 },
  });
  const pace = spec.pacer();
  try {
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: calls }, () => pace(() => client.getBrands({}, { lane: 'background' }))),
    );
    return {
      ms: performance.now() - started,
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
    budget: (keyHash, config) => createSqliteBudgetStore(db, keyHash, config, { ownsHandle: true }),
    keyHash: hashApiKey(apiKey),
    plan: 'scale',
    limits: { perMinute: PER_MINUTE, burst: BURST, perDay: null },
    endpointPerMinute: null,
  });
  return limiter;
}

interface Summary {
  spec: PacerSpec;
  ratios: number[];
  rateLimited: number[];
  failed: number;
}

function summarize(s: Summary): { median: number; line: string } {
  const sorted = [...s.ratios].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  const f = (x: number | undefined) => (x === undefined ? '  —  ' : `×${x.toFixed(3)}`);
  const runs429 = s.rateLimited.filter((n) => n > 0).length;
  const total429 = s.rateLimited.reduce((a, b) => a + b, 0);
  return {
    median,
    line: `  ${s.spec.name.padEnd(58)} ${f(sorted[0])} ${f(median)} ${f(sorted.at(-1))}   429s ${String(total429).padStart(4)} in ${runs429}/${s.rateLimited.length} runs   ≤ ×${TARGET_RATIO} with no 429 in ${s.ratios.filter((r, i) => r <= TARGET_RATIO && s.rateLimited[i] === 0).length}/${s.ratios.length}`,
  };
}

async function efficiency(dir: string, o: Required<LimiterBenchOptions>): Promise<string[]> {
  const minimumMs = ((o.calls - BURST) / PER_SECOND) * 1_000;
  const specs = pacerSpecs();
  const summaries: Summary[] = specs.map((spec) => ({ spec, ratios: [], rateLimited: [], failed: 0 }));
  // Bounded by the expected length of the whole part, ×3 for a slow machine.
  const load = o.load ? startCpuLoad(specs.length * o.rounds * minimumMs * 3 + 60_000) : null;
  const loadBefore = loadavg()[0]!;
  try {
    // One unmeasured run of every pacer first: the first requests of the process pay for
    // compiling the client, undici and the simulator, which would land on whichever pacer
    // happens to run first.
    for (const s of summaries) await run(s.spec, dir, WARM_UP_CALLS);
    for (let round = 0; round < o.rounds; round++) {
      for (const s of summaries) {
        const r = await run(s.spec, dir, o.calls);
        s.ratios.push(r.ms / minimumMs);
        s.rateLimited.push(r.rateLimited);
        s.failed += o.calls - r.ok;
      }
    }
  } finally {
    await load?.stop();
  }
  const loadAfter = loadavg()[0]!;
  const scored = summaries.map((s) => ({
    s,
    ...summarize(s),
    total429: s.rateLimited.reduce((a, b) => a + b, 0),
  }));
  const best = (family: PacerSpec['family']) =>
    scored
      .filter((x) => x.s.spec.family === family)
      .sort((a, b) => a.total429 - b.total429 || a.median - b.median)[0]!;
  return [
    `Limiter efficiency: ${o.calls} calls, ${PER_MINUTE}/min burst ${BURST}; theoretical minimum ${(minimumMs / 1000).toFixed(1)} s; ${o.rounds} rounds${load ? `, ${load.workers} busy-loop processes keeping every core loaded` : ', no extra load'}; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    `  ${'pacer (best documented setting of each)'.padEnd(58)} ${'min'.padStart(6)} ${'median'.padStart(6)} ${'max'.padStart(6)}`,
    best('ours').line,
    best('p-throttle').line,
    best('Bottleneck').line,
    '  every setting tried:',
    ...scored.map((x) => x.line),
  ];
}

/** Wraps a limiter to time each acquire(), per lane. */
function timed(inner: RateLimiter, waits: Record<Lane, number[]>): RateLimiter {
  return {
    ...inner,
    async acquire(endpoint, lane, signal, priority) {
      const started = performance.now();
      await inner.acquire(endpoint, lane, signal, priority);
      waits[lane].push(performance.now() - started);
    },
    observe: (e, o) => inner.observe(e, o),
    state: () => inner.state(),
    close: () => inner.close(),
  };
}

async function interactiveWait(dir: string, bursts: number): Promise<string[]> {
  const sizes = [1, 2, 5];
  const background = Math.ceil(((sizes.length * bursts * 300 + 4_000) / 1_000) * PER_SECOND) + BURST;
  const sim = await startSimulator({ limits: SIM_LIMITS });
  const waits: Record<Lane, number[]> = { interactive: [], background: [] };
  const limiter = timed(ourLimiter(dir, sim.apiKey), waits);
  const client = new ApiClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    limiter,
    retry: { max429Retries: 0 },
  });
  const bySize = new Map<number, { first: number[]; rest: number[] }>();
  const lines: string[] = [];
  try {
    const backgroundDone = Promise.allSettled(
      Array.from({ length: background }, () => client.getBrands({}, { lane: 'background' })),
    );
    await new Promise((r) => setTimeout(r, 2_000));
    for (const size of sizes) {
      const entry = { first: [] as number[], rest: [] as number[] };
      bySize.set(size, entry);
      for (let b = 0; b < bursts; b++) {
        // People arrive at no particular phase of the token clock.
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 300));
        const before = waits.interactive.length;
        await Promise.allSettled(
          Array.from({ length: size }, () => client.getBrands({}, { lane: 'interactive' })),
        );
        (b === 0 ? entry.first : entry.rest).push(...waits.interactive.slice(before));
      }
    }
    const stillQueued = limiter.state().lanes.background.queued;
    limiter.close();
    await backgroundDone;
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    lines.push(
      `Interactive wait with the background lane saturated (${background} background calls, ${PER_SECOND}/s, token interval ${ms(TOKEN_INTERVAL_MS)}):`,
    );
    for (const [size, e] of bySize) {
      lines.push(
        `  bursts of ${size}: p50 ${ms(percentile(e.rest, 50))}   p99 ${ms(percentile(e.rest, 99))}   max ${ms(Math.max(...e.rest))}  (${bursts - 1} bursts; the first burst of this size waited up to ${ms(Math.max(...e.first))} while the reserve grew)`,
      );
    }
    lines.push(
      `  background still queued after the last burst: ${stillQueued}; 429s: ${sim.requests.filter((r) => r.status === 429).length}`,
    );
    return lines;
  } finally {
    limiter.close();
    await client.close();
    await sim.close();
  }
}

/** Three replicas' limiters on one Postgres budget, each sending a third of the calls. */
export async function postgresReplicas(o: Required<LimiterBenchOptions>): Promise<string[]> {
  const replicas = 3;
  const minimumMs = ((o.calls - BURST) / PER_SECOND) * 1_000;
  const server = await startPostgresServer();
  const pools = Array.from({ length: replicas }, () => createPool(server.adminUrl, { max: 3 }));
  const ratios: number[] = [];
  const rateLimited: number[] = [];
  let failed = 0;
  const load = o.load ? startCpuLoad(o.rounds * minimumMs * 3 + 60_000) : null;
  const loadBefore = loadavg()[0]!;
  try {
    await migratePostgres(pools[0]!, migrations);
    for (let round = -1; round < o.rounds; round++) {
      const calls = round < 0 ? WARM_UP_CALLS : o.calls;
      const sim = await startSimulator({ limits: SIM_LIMITS });
      // A key of its own per round: the simulator's bucket starts full, so must ours.
      const keyHash = `${hashApiKey(sim.apiKey)}:${round}`;
      const clients = pools.map((pool) => {
        const limiter = createRateLimiter({
          budget: (_key, config) => createPgBudgetStore(pool, keyHash, config),
          keyHash,
          plan: 'scale',
          limits: { perMinute: PER_MINUTE, burst: BURST, perDay: null },
          endpointPerMinute: null,
        });
        const client = new ApiClient({
          baseUrl: sim.url,
          apiKey: sim.apiKey,
          limiter,
          retry: { max429Retries: 0 },
        });
        return { limiter, client };
      });
      try {
        const started = performance.now();
        const results = await Promise.allSettled(
          Array.from({ length: calls }, (_, i) =>
            clients[i % replicas]!.client.getBrands({}, { lane: 'background' }),
          ),
        );
        if (round < 0) continue;
        ratios.push((performance.now() - started) / minimumMs);
        rateLimited.push(sim.requests.filter((r) => r.status === 429).length);
        failed += results.filter((r) => r.status === 'rejected').length;
      } finally {
        for (const { limiter, client } of clients) {
          await limiter.close();
          await client.close();
        }
        await sim.close();
      }
    }
  } finally {
    await load?.stop();
    await Promise.all(pools.map((p) => p.end()));
    await server.stop();
  }
  const loadAfter = loadavg()[0]!;
  const { line } = summarize({
    spec: { family: 'ours', name: `visibility-bot limiter, ${replicas} replicas (Postgres)`, ...NO_PACER },
    ratios,
    rateLimited,
    failed,
  });
  return [
    `Replicas on Postgres: ${o.calls} calls over ${replicas} limiters on ${replicas} pools, one key, ${PER_MINUTE}/min burst ${BURST}; ${o.rounds} rounds${load ? `, ${load.workers} busy-loop processes` : ''}; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}; ${failed} failed calls`,
    line,
  ];
}

/** summarize() reads only a spec's name. */
const NO_PACER = { limiter: () => unlimitedLimiter(), pacer: () => direct };

export async function runLimiterBench(
  options: LimiterBenchOptions & { quick?: boolean } = {},
): Promise<string[]> {
  const quick = options.quick ?? false;
  const o: Required<LimiterBenchOptions> = {
    rounds: options.rounds ?? (quick ? 3 : 10),
    calls: options.calls ?? (quick ? 300 : 600),
    bursts: options.bursts ?? (quick ? 10 : 30),
    load: options.load ?? true,
  };
  const dir = mkdtempSync(join(tmpdir(), 'limiter-bench-'));
  try {
    return [
      ...(await efficiency(dir, o)),
      '',
      ...(await interactiveWait(dir, o.bursts)),
      '',
      ...(await postgresReplicas(o)),
      '',
      ...(await sqliteProcesses(dir, o)),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runLimiterBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
