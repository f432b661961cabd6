/**
 * Alerting benchmark (`npx tsx bench/alerts.ts`; numbers are printed, never asserted).
 *
 * (a) One run of the citations, crawler and AI Pages jobs over 1,000 brands × 500 citation
 *     feed events (~5 % of them new since the last run) plus a crawler overview and an AI
 *     Pages record per brand, through the real job path (bench/alerts-run.ts): the API
 *     client reads the HTTP responses from a real socket (JSON text parsed and validated
 *     with its zod schemas), the jobs detect, build messages and write state and outbox
 *     rows (several brands to a transaction: for the citations job four on SQLite and
 *     eight on Postgres, for the crawler and AI Pages jobs 32): once on an SQLite temp file, once on a
 *     Postgres database of a throwaway server (whose own CPU and memory are not counted:
 *     they are the database's, on another process, as in production).
 *     Targets: ≤ 2 s CPU, ≤ 200 MB peak RSS. The state the previous run left is set up
 *     here; the run itself happens in a child process (bench/alerts-run.ts) so its CPU
 *     time and peak RSS are its own, and the service answering it in another
 *     (bench/alerts-server.ts), so making the payloads is not counted. The run process is
 *     bench/alerts-run.ts bundled with the build's esbuild settings and run by plain
 *     `node` with the Docker image's flag and environment (lib/build-cli.ts IMAGE_RUNTIME),
 *     as `node dist/main.js run-job` runs the jobs there: through tsx it would also hold
 *     the TypeScript compiler (printed once, for comparison). CPU time inflates on a busy
 *     machine, so each backend runs three times (once with --quick), the medians are
 *     reported, and the load average is printed with every run.
 *     The floor is printed beside it: the same requests read through undici's dispatch
 *     and parsed by JSON.parse alone (bench/alerts-floor.ts): the reading no bot that
 *     validates these responses does without.
 * (b) API calls per brand per day at the default poll intervals, and how many brands one
 *     Scale key (10,000 calls/day) can watch within 80 % of that, from the same planner
 *     the scheduler uses.
 *
 * For work on the run's cost, two environment settings (the figures are measured the same
 * way): ALERTS_BENCH_ONLY=sqlite|postgres runs one backend and leaves out the once-only
 * comparison runs; ALERTS_BENCH_CPU_PROF=<dir> writes a V8 CPU profile of every measured
 * run under <dir>/<backend>/ (the profiler itself adds about a third to the CPU time).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import pg from 'pg';
import { distBuildOptions } from '../scripts/build-dist.mjs';
import { DEFAULT_ALERT_SETTINGS } from '../src/alerts/alert-settings.js';
import { detectAiPages } from '../src/alerts/detect-ai-pages.js';
import { baselineCitations } from '../src/alerts/detect-citations.js';
import { PLAN_LIMITS } from '../src/api/plans.js';
import { createSqliteStore } from '../src/store/create-sqlite-store.js';
import { openDatabase } from '../src/store/open-database.js';
import { openPostgresStore } from '../src/store/postgres/create-postgres-store.js';
import type { Store } from '../src/store/store.js';
import {
  callsPerBrandPerDay,
  DEFAULT_POLL_INTERVALS,
  DIGEST_CALLS_PER_BRAND,
  MAX_POLL_INTERVALS,
  maxBrandsWithin,
  type PollingPlan,
  planPolling,
  QUOTA_SHARE,
} from '../src/use-cases/plan-polling.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';
import { ALERTS_BEFORE, ALERTS_BEFORE_LEVEL_BATCHES, ALERTS_BEFORE_SAME_LOAD } from './alerts-before.js';
import { aiPagesRecord, brandOf, citationFeed, DAY, START } from './alerts-fixtures.js';
import type { AlertsRunResult } from './alerts-run.js';
import { envOf, IMAGE_RUNTIME, NODE_DEFAULTS, type NodeRuntime } from './lib/build-cli.js';

type Backend = 'sqlite' | 'postgres';

/** ALERTS_BENCH_ONLY, when it names a backend. */
function onlyBackend(): Backend | null {
  const only = process.env['ALERTS_BENCH_ONLY'];
  return only === 'sqlite' || only === 'postgres' ? only : null;
}

/** The V8 flags that write a CPU profile of a run under ALERTS_BENCH_CPU_PROF, when set. */
function profileFlags(backend: Backend): string[] {
  const dir = process.env['ALERTS_BENCH_CPU_PROF'];
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, backend)}`] : [];
}

export interface AlertsBenchOptions {
  /** Quick mode runs the same size: it takes seconds. */
  quick?: boolean;
  brands?: number;
  eventsPerBrand?: number;
  /** Share of each feed that is new since the last run. */
  newShare?: number;
  /** Measured runs per backend; the medians are reported (default 3, quick 1). */
  rounds?: number;
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');

/**
 * The state the previous run left behind: subscriptions, baselined citations, a day-old
 * successful citations run per brand (so the job alerts rather than baselines), and the
 * level detectors' per-channel state. Written through the store, so either backend gets
 * the same rows.
 */
export async function setUpAlertsBench(store: Store, brands: number, known: number): Promise<void> {
  const at = START - DAY;
  await store.transaction(async () => {
    for (let b = 0; b < brands; b++) {
      const brand = brandOf(b);
      const channelId = `C${b % 50}`;
      await store.subscriptions.upsert({
        channelId,
        brandId: brand.id,
        brandName: brand.name,
        createdBy: 'U1',
        createdAtMs: at,
      });
      await store.citationState.replace(
        brand.id,
        baselineCitations(citationFeed(b, known, 0), new Map(), at),
        at,
      );
      await store.jobRuns.recordBrandSuccess('citations', brand.id, at);
      const levels = store.channelDetectorState;
      await levels.putCrawler(channelId, brand.id, { dropping: false, episode: 0, lastChangePct: 0 }, at);
      await levels.putAiPages(
        channelId,
        brand.id,
        detectAiPages(null, aiPagesRecord(b, 50), DEFAULT_ALERT_SETTINGS, brand, at).next,
        at,
      );
    }
  });
}

const run = promisify(execFile);

/** Where one backend's measured runs read their database: a fresh copy of the set-up one each time. */
interface BenchDatabase {
  backend: 'sqlite' | 'postgres';
  label: string;
  /** The run process's target (an SQLite path or a postgres:// URL), set up afresh. */
  fresh(): Promise<string>;
  close(): Promise<void>;
}

async function sqliteBench(dir: string, brands: number, known: number): Promise<BenchDatabase> {
  const dbPath = join(dir, 'bench.db');
  const db = openDatabase(dbPath);
  await setUpAlertsBench(createSqliteStore(db, { closesDatabase: false }), brands, known);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const runDbPath = join(dir, 'run.db');
  return {
    backend: 'sqlite',
    label: 'SQLite, temp file db',
    async fresh() {
      copyFileSync(dbPath, runDbPath);
      rmSync(`${runDbPath}-wal`, { force: true });
      rmSync(`${runDbPath}-shm`, { force: true });
      return runDbPath;
    },
    close: async () => {},
  };
}

/** A throwaway server; the set-up database is the template every run's database is copied from. */
async function postgresBench(brands: number, known: number): Promise<BenchDatabase> {
  const server = await startPostgresServer();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  try {
    await admin.connect();
    const urlOf = (name: string) => {
      const u = new URL(server.adminUrl);
      u.pathname = `/${name}`;
      return u.toString();
    };
    await admin.query('CREATE DATABASE bench_setup');
    const store = await openPostgresStore(urlOf('bench_setup'));
    await setUpAlertsBench(store, brands, known);
    await store.close();
    let runs = 0;
    return {
      backend: 'postgres',
      label: 'Postgres (embedded server, its own process: not counted), one pool',
      async fresh() {
        runs += 1;
        await admin.query(`CREATE DATABASE bench_run_${runs} TEMPLATE bench_setup`);
        return urlOf(`bench_run_${runs}`);
      },
      async close() {
        await admin.end();
        await server.stop();
      },
    };
  } catch (err) {
    await admin.end().catch(() => undefined);
    await server.stop();
    throw err;
  }
}

/**
 * How the run process is started. As shipped: bench/alerts-run.ts and all it imports
 * bundled with the build's own esbuild settings (scripts/build-dist.mjs), run by plain
 * `node`, as `node dist/main.js run-job` runs the jobs. Under tsx (the way the bench ran
 * it before) the process also holds the on-the-fly TypeScript compiler and the compiled
 * modules, about 45 MB that production never loads; printed once for comparison.
 */
interface RunProcess {
  label: string;
  args: string[];
}

/** The run process bundled into a directory under node_modules, so its external packages resolve. */
async function bundledRun(repoRoot: string): Promise<RunProcess & { dir: string }> {
  const cache = join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'alerts-bench-'));
  await build({
    ...distBuildOptions(dir),
    absWorkingDir: repoRoot,
    entryPoints: {
      'alerts-run': fileURLToPath(new URL('./alerts-run.ts', import.meta.url)),
      'alerts-floor': fileURLToPath(new URL('./alerts-floor.ts', import.meta.url)),
    },
  });
  return {
    label: 'bundled as npm run build bundles the CLI, plain node',
    args: [join(dir, 'alerts-run.js')],
    dir,
  };
}

interface FloorFigures {
  cpuMs: number;
  peakRssMb: number;
}

/**
 * The floor (bench/alerts-floor.ts): the run's requests read with undici and parsed, and
 * nothing else, bundled and started as the run is; the median of `rounds`.
 */
async function measureFloor(dir: string, port: number, brands: number, rounds: number) {
  const runs: { f: FloorFigures; load: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const load = loadavg()[0]!;
    const { stdout } = await run(
      process.execPath,
      [...IMAGE_RUNTIME.flags, join(dir, 'alerts-floor.js'), `http://127.0.0.1:${port}`, String(brands)],
      { env: envOf(IMAGE_RUNTIME) },
    );
    runs.push({ f: JSON.parse(stdout) as FloorFigures, load });
  }
  return runs.sort((a, b) => a.f.cpuMs - b.f.cpuMs)[Math.floor((rounds - 1) / 2)]!;
}

const tsxRun = (): RunProcess => ({
  label: 'through tsx',
  args: ['--import', 'tsx', fileURLToPath(new URL('./alerts-run.ts', import.meta.url))],
});

async function measureBackend(
  database: BenchDatabase,
  port: number,
  runtime: NodeRuntime,
  runProcess: RunProcess,
): Promise<AlertsRunResult> {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const target = await database.fresh();
  const { stdout } = await run(
    process.execPath,
    [
      ...runtime.flags,
      ...profileFlags(database.backend),
      ...runProcess.args,
      target,
      `http://127.0.0.1:${port}`,
    ],
    { maxBuffer: 1 << 20, cwd: repoRoot, env: envOf(runtime) },
  );
  return JSON.parse(stdout) as AlertsRunResult;
}

interface BenchSize {
  brands: number;
  perBrand: number;
  fresh: number;
}

const ok = (v: boolean) => (v ? 'OK' : 'OVER');
const CPU_TARGET_MS = 2000;
const RSS_TARGET_MB = 200;

/** One line per backend: CPU seconds and peak RSS against the targets, and the figures before. */
function reportTargets(measured: { backend: 'sqlite' | 'postgres'; r: AlertsRunResult; load: number }[]) {
  const name = { sqlite: 'SQLite', postgres: 'Postgres' } as const;
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return [
    `alerts (a) against the targets (≤ ${s(CPU_TARGET_MS)} s CPU, ≤ ${RSS_TARGET_MB} MB peak RSS); "before": whole-state writes, one brand per transaction (bench/alerts-before.ts):`,
    ...measured.map(({ backend, r, load }) => {
      const b = ALERTS_BEFORE[backend];
      const c = ALERTS_BEFORE_SAME_LOAD[backend];
      const l = ALERTS_BEFORE_LEVEL_BATCHES[backend];
      return `  ${name[backend].padEnd(8)} ${s(r.cpuMs)} s CPU ${ok(r.cpuMs <= CPU_TARGET_MS)}, ${n(r.peakRssMb)} MB ${ok(r.peakRssMb <= RSS_TARGET_MB)} (load ${load.toFixed(1)}); before ${s(b.cpuMs)} s, ${n(b.peakRssMb)} MB (load ${b.load.toFixed(1)}, through tsx); b3a0a83 bundled ${s(c.cpuMs)} s, ${n(c.peakRssMb)} MB (load ${c.load.toFixed(1)}); bb69b65 (level jobs a brand per transaction) ${s(l.cpuMs)} s, ${n(l.peakRssMb)} MB (load ${l.load.toFixed(1)})`;
    }),
  ];
}

function reportRun(
  size: BenchSize,
  label: string,
  runs: readonly Measured[],
  setupMs: number,
  runProcess: RunProcess,
) {
  const { r, load } = medianOf(runs);
  const jobs = Object.entries(r.jobCpuMs)
    .map(([job, ms]) => `${job} ${n(ms)}`)
    .join(', ');
  const peaks = Object.entries(r.jobPeakRssMb ?? {})
    .map(([job, mb]) => `${job} ${n(mb)} MB`)
    .join(', ');
  return [
    `alerts (a): ${n(size.brands)} brands × ${n(size.perBrand)} feed events (${n(size.fresh)} new per brand) + crawler + AI Pages, ${label}; Node ${process.versions.node}`,
    `  run process: bench/alerts-run.ts ${runProcess.label}; setup (not measured): ${n(size.brands * (size.perBrand - size.fresh))} baselined URL states in ${n(setupMs)} ms`,
    `  ${runs.length} runs (CPU ms, peak RSS MB, load): ${runs.map((m) => `${n(m.r.cpuMs)} / ${n(m.r.peakRssMb)} / ${m.load.toFixed(1)}`).join('; ')}; the medians:`,
    `  run CPU (the citations, crawler and AI Pages jobs: socket → HTTP → JSON → zod → state → detect → messages → state + outbox rows): ${n(r.cpuMs)} ms (target ≤ ${n(CPU_TARGET_MS)}) ${ok(r.cpuMs <= CPU_TARGET_MS)}; by job: ${jobs}`,
    `  wall ${n(r.wallMs)} ms; load average ${load.toFixed(1)} before, on ${cpus().length} CPUs`,
    `  peak RSS of the run process: ${n(r.peakRssMb)} MB (target ≤ ${RSS_TARGET_MB}) ${ok(r.peakRssMb <= RSS_TARGET_MB)}; runtime alone ${n(r.baselineRssMb)} MB; in the median-CPU run at most ${n(r.peakHeapMb)} MB V8 heap and ${n(r.peakOutsideHeapMb)} MB outside it (code, SQLite and Buffers: ${n(r.peakArrayBuffersMb ?? 0)} MB of them ArrayBuffers at most); peak RSS as each job ended: ${peaks}`,
    `  produced ${n(r.alerts)} alerts in ${n(r.messages)} outbox messages; ${n(r.statesSaved)} brands' citation state written; ${n(r.failed)} failures`,
  ];
}

interface Measured {
  r: AlertsRunResult;
  load: number;
}

/**
 * The median run: CPU seconds vary with the machine's load and peak RSS with when the
 * collector runs, so one run misleads. The run with the median CPU time, its peak RSS
 * replaced by the median peak RSS (of any run).
 */
function medianOf(runs: readonly Measured[]): Measured {
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const cpu = mid(runs.map((m) => m.r.cpuMs));
  const run = runs.find((m) => m.r.cpuMs === cpu)!;
  return { ...run, r: { ...run.r, peakRssMb: mid(runs.map((m) => m.r.peakRssMb)) } };
}

async function measureRuns(
  database: BenchDatabase,
  port: number,
  rounds: number,
  runProcess: RunProcess,
): Promise<Measured[]> {
  const runs: Measured[] = [];
  for (let i = 0; i < rounds; i++) {
    const load = loadavg()[0]!;
    runs.push({ r: await measureBackend(database, port, IMAGE_RUNTIME, runProcess), load });
  }
  return runs;
}

export async function runAlertsBench(options: AlertsBenchOptions = {}): Promise<string[]> {
  const brands = options.brands ?? 1000;
  const perBrand = options.eventsPerBrand ?? 500;
  const fresh = Math.round(perBrand * (options.newShare ?? 0.05));
  const known = perBrand - fresh;
  const rounds = options.rounds ?? (options.quick ? 1 : 3);
  const size = { brands, perBrand, fresh };
  const lines: string[] = [];

  const dir = mkdtempSync(join(tmpdir(), 'visibility-bench-'));
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const bundled = await bundledRun(repoRoot);
  // The service, in its own process: its CPU (making the bodies) is not the bot's.
  // `--import tsx` resolves from the working directory: run it from the repo root.
  const server = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./alerts-server.ts', import.meta.url)),
      String(known),
      String(fresh),
    ],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  try {
    const [firstLine] = (await once(server.stdout, 'data')) as [Buffer];
    const port = Number(firstLine.toString().trim());
    const only = onlyBackend();
    const backends = [
      { backend: 'sqlite', make: () => sqliteBench(dir, brands, known) },
      { backend: 'postgres', make: () => postgresBench(brands, known) },
    ].filter((b) => only === null || b.backend === only);
    const measured: { backend: 'sqlite' | 'postgres'; r: AlertsRunResult; load: number }[] = [];
    for (const [i, { make }] of backends.entries()) {
      const setupStart = performance.now();
      const database = await make();
      const setupMs = performance.now() - setupStart;
      try {
        const runs = await measureRuns(database, port, rounds, bundled);
        measured.push({ backend: database.backend, ...medianOf(runs) });
        lines.push(...reportRun(size, database.label, runs, setupMs, bundled));
        if (i === 0 && only === null) {
          // Once, on the default backend: what the image's settings are worth, and what
          // running the TypeScript through tsx adds.
          const d = await measureBackend(database, port, NODE_DEFAULTS, bundled);
          const t = await measureBackend(database, port, IMAGE_RUNTIME, tsxRun());
          const shipped = [
            ...IMAGE_RUNTIME.flags,
            ...Object.entries(IMAGE_RUNTIME.env).map(([k, v]) => `${k}=${v}`),
          ];
          lines.push(
            `  (run with the Docker image's settings ${shipped.join(' ')}; with Node's defaults the same run took ${n(d.cpuMs)} ms CPU and peaked at ${n(d.peakRssMb)} MB)`,
            `  (through tsx instead of the bundle, as this bench ran it before: ${n(t.cpuMs)} ms CPU, peak ${n(t.peakRssMb)} MB, of which ${n(t.baselineRssMb)} MB before the run; the CPU is measured from after the imports, so compiling them is not in it either way)`,
          );
        }
      } finally {
        await database.close();
      }
    }
    const floor = await measureFloor(bundled.dir, port, brands, rounds);
    lines.push(
      `alerts (a) floor: the same ${n(brands * 3)} requests read through undici's dispatch and JSON.parse, nothing else (bench/alerts-floor.ts): ${n(floor.f.cpuMs)} ms CPU, peak ${n(floor.f.peakRssMb)} MB (load ${floor.load.toFixed(1)}); the run's CPU above it is the bot's own work; the reading alone is ${n((floor.f.cpuMs / CPU_TARGET_MS) * 100)} % of the ${n(CPU_TARGET_MS)} ms target`,
      ...reportTargets(measured),
    );
  } finally {
    server.stdin.end();
    server.kill();
    rmSync(dir, { recursive: true, force: true });
    rmSync(bundled.dir, { recursive: true, force: true });
  }

  // (b) Quota arithmetic, from the planner the scheduler uses.
  const scale = PLAN_LIMITS.scale.perDay!;
  const budget = Math.floor(scale * QUOTA_SHARE);
  const perBrandDefault = callsPerBrandPerDay(DEFAULT_POLL_INTERVALS);
  const perBrandMax = callsPerBrandPerDay(MAX_POLL_INTERVALS);
  const atDefault = maxBrandsWithin(budget, DEFAULT_POLL_INTERVALS)!;
  const atLongest = maxBrandsWithin(budget, MAX_POLL_INTERVALS)!;
  const plan1000 = planPolling({ brands: 1000, dailyLimit: scale });
  const plan300 = planPolling({ brands: 300, dailyLimit: scale });
  const iv = (p: PollingPlan) =>
    `citations ${p.intervals.citationsHours} h, crawler ${p.intervals.crawlerHours} h, AI Pages ${p.intervals.aiPagesHours} h`;
  lines.push(
    `alerts (b): API calls per brand per day at defaults (${iv(planPolling({ brands: 0, dailyLimit: null }))}, digest ${DIGEST_CALLS_PER_BRAND}): ${perBrandDefault.toFixed(1)}`,
    `  Scale key ${n(scale)}/day, ${Math.round(QUOTA_SHARE * 100)} % = ${n(budget)}: ${n(atDefault)} brands at default intervals, ${n(atLongest)} at the longest (${perBrandMax.toFixed(1)} calls/brand/day)`,
    `  300 brands → ${iv(plan300)}: ${n(plan300.callsPerDay)} calls/day`,
    `  1,000 brands → ${iv(plan1000)}: ${n(plan1000.callsPerDay)} calls/day${plan1000.warning ? ` (${plan1000.warning})` : ''}`,
  );
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runAlertsBench()) console.log(line);
}
