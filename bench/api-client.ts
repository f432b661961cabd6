/**
 * API client benchmark (`npm run bench -- api-client`; numbers are printed, never
 * asserted): the CPU the bot spends per 1,000 citation feeds read through the real
 * ApiClient (`getCitationFeed`: limiter, transport, JSON.parse, validation), against the
 * raw ways of reading the same bodies with undici as peers: `request()` + `body.text()`,
 * and `dispatch` with a handler that keeps the chunks, each with and without JSON.parse.
 *
 * The bodies are the alerting benchmark's (bench/alerts-server.ts, in its own process,
 * its CPU not counted): 500 events, about 130 kB each, read one after another as the
 * citations job reads them. Each reading runs in a fresh process (bench/api-client-run.ts)
 * and counts that process's CPU (user + system) over the reads only, not its start-up.
 * The ways alternate round after round, so a burst of load hits all of them; the machine's
 * load average is printed with the medians. `API_CLIENT_BENCH_BEFORE=<checkout>/src` adds
 * the ApiClient of another checkout (say, the commit before a change) as one more way.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { percentile } from './lib/order-stats.js';

const run = promisify(execFile);
const FEEDS = 1_000;

interface Way {
  label: string;
  args: string[];
}

const WAYS: Way[] = [
  { label: 'undici request() + body.text()', args: ['request-text'] },
  { label: 'undici dispatch, chunks kept', args: ['dispatch-text'] },
  { label: 'undici request() + text + JSON.parse', args: ['request-parse'] },
  { label: 'undici dispatch + JSON.parse', args: ['dispatch-parse'] },
  { label: 'ApiClient.getCitationFeed', args: ['client'] },
];

async function measure(way: Way, port: number, repoRoot: string): Promise<number> {
  const runner = fileURLToPath(new URL('./api-client-run.ts', import.meta.url));
  const [name, ...rest] = way.args;
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', runner, name!, String(port), String(FEEDS), ...rest],
    { cwd: repoRoot, maxBuffer: 1 << 20 },
  );
  const result = JSON.parse(stdout) as { cpuMs: number; events: number };
  return result.cpuMs;
}

export async function runApiClientBench(options: { quick: boolean }): Promise<string[]> {
  const rounds = options.quick ? 3 : 7;
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const before = process.env['API_CLIENT_BENCH_BEFORE'];
  const ways = before ? [...WAYS, { label: `ApiClient of ${before}`, args: ['client', before] }] : WAYS;
  // `--import tsx` resolves from the working directory: run it from the repo root.
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./alerts-server.ts', import.meta.url)), '475', '25'],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  try {
    const [firstLine] = (await once(server.stdout, 'data')) as [Buffer];
    const port = Number(firstLine.toString().trim());
    const cpu = ways.map(() => [] as number[]);
    const loads: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [i, way] of ways.entries()) {
        cpu[i]!.push(await measure(way, port, repoRoot));
        loads.push(loadavg()[0]!);
      }
    }
    const load = percentile(loads, 50);
    const width = Math.max(...ways.map((w) => w.label.length));
    return [
      `CPU per ${FEEDS.toLocaleString('en')} citation feeds of 500 events (~130 kB each), median of ${rounds} rounds (load ${load.toFixed(1)}; min–max):`,
      ...ways.map((way, i) => {
        const s = (ms: number) => (ms / 1000).toFixed(2);
        const values = cpu[i]!;
        return `  ${way.label.padEnd(width)}  ${s(percentile(values, 50))} s  (${s(Math.min(...values))}–${s(Math.max(...values))})`;
      }),
    ];
  } finally {
    server.stdin.end();
    server.kill();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await runApiClientBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
