/**
 * Chart benchmark (`npm run bench -- charts`; numbers are printed, never asserted).
 *
 * (a) Per chart kind: render time (spec → SVG → PNG, the whole of `renderChart`) p50 and
 *     p99 over repeated renders of two weeks of data, with the SVG step alone beside it,
 *     and the peak RSS of a process that does only that.
 * (b) A 1,000-brand digest: one compact digest chart per brand through
 *     `createChartRenderer` with the default concurrency, as the digest job would queue
 *     them: wall time, charts per second, render time p50/p99, PNG bytes, peak RSS, and
 *     how long the event loop was held at worst (what a slash-command ack arriving
 *     meanwhile would wait); once rendering on the event loop, once in worker threads
 *     (`createWorkerRenderPool`). Peak RSS includes the worker threads' heaps.
 * Each part runs in its own child process (this file with `--child`), so the peak RSS is
 * the rendering's own and not the parent's. Times inflate on a busy machine, so the load
 * average is printed.
 */
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { aiPagesUsageChart } from '../src/charts/ai-pages-usage-chart.js';
import {
  createChartRenderer,
  createWorkerRenderPool,
  DEFAULT_CHART_CONCURRENCY,
} from '../src/charts/chart-renderer.js';
import type { ChartKind, ChartSpec } from '../src/charts/chart-spec.js';
import { citationsHistoryChart } from '../src/charts/citations-history-chart.js';
import { crawlerVisitsChart } from '../src/charts/crawler-visits-chart.js';
import { digestBrandChart } from '../src/charts/digest-brand-chart.js';
import { pageTrafficChart } from '../src/charts/page-traffic-chart.js';
import { type RenderedChart, renderChart, renderChartSvg } from '../src/charts/render-chart.js';
import { percentile } from './lib/order-stats.js';

const run = promisify(execFile);
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => (x < 10 ? x.toFixed(1) : n(x));

function day(offset: number): string {
  return new Date(Date.UTC(2026, 10, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Deterministic wobbly figures, so every run draws the same charts. */
function wave(seed: number, i: number, base: number): number {
  return Math.round(base * (1 + 0.2 * Math.sin(seed * 1.7 + i * 0.9)));
}

function specFor(kind: ChartKind, seed: number): ChartSpec {
  const brand = `Brand ${seed}`;
  const days = (base: number, count = 14) =>
    Array.from({ length: count }, (_, i) => ({ date: day(i), value: wave(seed, i, base) }));
  switch (kind) {
    case 'citations-history':
      return citationsHistoryChart({
        brand,
        days: days(25),
        competitors: Array.from({ length: 5 }, (_, c) => ({ name: `Rival ${c}`, days: days(10 + c * 5) })),
      });
    case 'crawler-visits':
      return crawlerVisitsChart({
        brand,
        byDay: Array.from({ length: 14 }, (_, i) =>
          [
            'GPTBot',
            'ClaudeBot',
            'PerplexityBot',
            'Google-Extended',
            'Bytespider',
            'CCBot',
            'Applebot',
            'Amazonbot',
          ].map((crawler, c) => ({ date: day(i), crawler, visits: wave(seed + c, i, 40 - c * 4) })),
        ).flat(),
        previous: Array.from({ length: 14 }, (_, i) => ({ date: day(i - 14), visits: wave(seed, i, 200) })),
      });
    case 'ai-pages-usage':
      return aiPagesUsageChart({
        brand,
        usage: Array.from({ length: 20 }, (_, i) => ({ date: day(i), used: 15 * (i + 1) })),
        limit: 400,
        periodStart: day(0),
        resetDate: day(30),
        forecast: Array.from({ length: 10 }, (_, i) => ({ date: day(i + 20), used: 15 * (i + 21) })),
      });
    case 'digest-brand':
      return digestBrandChart({ brand, citations: days(25, 7), crawlerVisits: days(1200, 7) });
    case 'page-traffic':
      return pageTrafficChart({ page: `/pricing-${seed}`, days: days(60, 30) });
  }
}

const KINDS: ChartKind[] = [
  'citations-history',
  'crawler-visits',
  'ai-pages-usage',
  'digest-brand',
  'page-traffic',
];

interface KindResult {
  renders: number;
  p50Ms: number;
  p99Ms: number;
  svgP50Ms: number;
  pngBytes: number;
  width: number;
  height: number;
  peakRssMb: number;
}

async function childKind(kind: ChartKind, renders: number): Promise<KindResult> {
  // A first render loads and warms vega, vega-lite and resvg; it is not counted.
  await renderChart(specFor(kind, 0));
  const times: number[] = [];
  const svgTimes: number[] = [];
  let last: RenderedChart | undefined;
  for (let i = 1; i <= renders; i++) {
    const spec = specFor(kind, i);
    const svgStart = performance.now();
    await renderChartSvg(spec);
    svgTimes.push(performance.now() - svgStart);
    const start = performance.now();
    last = await renderChart(spec);
    times.push(performance.now() - start);
  }
  return {
    renders,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    svgP50Ms: percentile(svgTimes, 50),
    pngBytes: last?.png.length ?? 0,
    width: last?.width ?? 0,
    height: last?.height ?? 0,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

type Isolation = 'inline' | 'worker';

interface DigestResult {
  isolation: Isolation;
  brands: number;
  concurrency: number;
  wallMs: number;
  p50Ms: number;
  p99Ms: number;
  pngMb: number;
  peakRssMb: number;
  baselineRssMb: number;
  loopMaxMs: number;
  loopP99Ms: number;
}

async function childDigest(brands: number, isolation: Isolation): Promise<DigestResult> {
  const pool = isolation === 'worker' ? createWorkerRenderPool(DEFAULT_CHART_CONCURRENCY) : undefined;
  const renderOne = pool?.render ?? renderChart;
  // Warm up (load vega in this thread or start the worker threads) before measuring.
  await Promise.all(
    Array.from({ length: DEFAULT_CHART_CONCURRENCY }, () => renderOne(specFor('digest-brand', 0))),
  );
  const baselineRssMb = process.resourceUsage().maxRSS / 1024;
  const times: number[] = [];
  const renderer = createChartRenderer({
    concurrency: DEFAULT_CHART_CONCURRENCY,
    renderFn: async (spec) => {
      const start = performance.now();
      const rendered = await renderOne(spec);
      times.push(performance.now() - start);
      return rendered;
    },
  });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let pngBytes = 0;
  const start = performance.now();
  // Every brand queued at once, as a digest run would; each PNG is dropped once "uploaded".
  await Promise.all(
    Array.from({ length: brands }, (_, i) =>
      renderer.render(specFor('digest-brand', i + 1)).then((r) => {
        pngBytes += r.png.length;
      }),
    ),
  );
  const wallMs = performance.now() - start;
  loop.disable();
  await pool?.close();
  return {
    isolation,
    brands,
    concurrency: DEFAULT_CHART_CONCURRENCY,
    wallMs,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    pngMb: pngBytes / 1024 / 1024,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    baselineRssMb,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6,
  };
}

async function inChild<T>(args: string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', ...args],
    {
      maxBuffer: 1 << 20,
      // `--import tsx` resolves from the working directory: run it from the repo root.
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    },
  );
  return JSON.parse(stdout) as T;
}

export async function runChartsBench(options: { quick?: boolean } = {}): Promise<string[]> {
  const renders = options.quick ? 10 : 50;
  const brands = options.quick ? 200 : 1000;
  const lines: string[] = [
    `charts: load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs; times include waiting for a core`,
  ];
  for (const kind of KINDS) {
    const r = await inChild<KindResult>(['kind', kind, String(renders)]);
    lines.push(
      `  ${kind.padEnd(18)} ${n(r.width)}×${n(r.height)} px, ${n(r.pngBytes / 1024)} KB: render p50 ${ms(r.p50Ms)} ms, ` +
        `p99 ${ms(r.p99Ms)} ms (SVG step p50 ${ms(r.svgP50Ms)} ms) over ${r.renders}; peak RSS ${n(r.peakRssMb)} MB`,
    );
  }
  for (const isolation of ['inline', 'worker'] as const) {
    const d = await inChild<DigestResult>(['digest', String(brands), isolation]);
    lines.push(
      `  digest run (${d.isolation === 'worker' ? 'worker threads' : 'on the event loop'}): ${n(d.brands)} brand charts, concurrency ${d.concurrency}: ${n(d.wallMs / 1000)} s wall ` +
        `(${(d.brands / (d.wallMs / 1000)).toFixed(1)} charts/s), render p50 ${ms(d.p50Ms)} ms, p99 ${ms(d.p99Ms)} ms, ` +
        `${n(d.pngMb)} MB of PNG`,
      `    peak RSS ${n(d.peakRssMb)} MB (${n(d.baselineRssMb)} MB after the first chart); event loop held ` +
        `at most ${ms(d.loopMaxMs)} ms (p99 ${ms(d.loopP99Ms)} ms) while rendering`,
    );
  }
  return lines;
}

const self = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (self && process.argv[2] === '--child') {
  const [mode, what, count] = process.argv.slice(3);
  const result =
    mode === 'kind'
      ? await childKind(what as ChartKind, Number(count))
      : await childDigest(Number(what), count as Isolation);
  process.stdout.write(JSON.stringify(result));
} else if (self) {
  for (const line of await runChartsBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
