/**
 * The bound on concurrent renders and the worker threads that render, without loading the
 * chart packages: a process that renders only in workers (`serve`, `run-job`) never loads
 * Vega or resvg on its main thread, and one that draws no chart (`check`) never loads them
 * at all. The in-process rendering (render-chart.ts) is imported on first use only.
 */
import type { Worker } from 'node:worker_threads';
import type { ChartSpec } from './chart-spec.js';
import { ChartError, ChartErrorCode } from './errors.js';
import type { RenderedChart } from './render-chart.js';

/** In this process (tests, the benchmark), loading the chart packages on the first chart. */
async function renderHere(spec: ChartSpec): Promise<RenderedChart> {
  const { renderChart } = await import('./render-chart.js');
  return renderChart(spec);
}

export interface ChartRenderer {
  /** Renders when a slot is free; waits (in call order) while `concurrency` renders run. */
  render(spec: ChartSpec): Promise<RenderedChart>;
}

interface ChartRendererOptions {
  /** Renders at a time; at least 1. */
  concurrency: number;
  /** The rendering itself; a seam for tests and the benchmark. */
  renderFn?: (spec: ChartSpec) => Promise<RenderedChart>;
}

/** Two at a time: the rasteriser uses a thread-pool thread each, and the host may have two cores. */
export const DEFAULT_CHART_CONCURRENCY = 2;

/**
 * A renderer that runs at most `concurrency` renders at once and queues the rest first in,
 * first out, so a 1,000-brand digest cannot start 1,000 rasterisations (and hold 1,000
 * images in memory) at the same time.
 */
export function createChartRenderer(
  options: ChartRendererOptions = { concurrency: DEFAULT_CHART_CONCURRENCY },
): ChartRenderer {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const renderFn = options.renderFn ?? renderHere;
  const waiting: (() => void)[] = [];
  let running = 0;

  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async render(spec) {
      if (running < concurrency) running += 1;
      // The slot passes straight from the finishing render to the next waiter.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await renderFn(spec);
      } finally {
        release();
      }
    },
  };
}

/** What the pool posts to a chart worker (chart-worker.ts) and what comes back. */
export interface WorkerRequest {
  id: number;
  spec: ChartSpec;
}

export type WorkerReply =
  | { id: number; chart: RenderedChart }
  | { id: number; error: { code: ChartErrorCode | undefined; message: string } };

export interface WorkerRenderPool {
  /** Renders in one of the pool's threads; waits for a free one. Pass as `renderFn`. */
  render(spec: ChartSpec): Promise<RenderedChart>;
  /** Ends the threads; renders still waiting fail. */
  close(): Promise<void>;
}

/**
 * Where the worker's code is: next to this file, compiled (`.js`, from dist) or as source
 * (`.ts`, under tsx or vitest, which then has to load it through tsx as well).
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  return import.meta.url.endsWith('.ts')
    ? { url: new URL('./chart-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] }
    : { url: new URL('./chart-worker.js', import.meta.url), execArgv: [] };
}

/**
 * One render on one thread: the request is posted and the thread's answer to it settles the
 * chart. `answered` gives the thread back; `gone` says it died (the render fails with it).
 */
function renderOn(
  worker: Worker,
  request: WorkerRequest,
  on: { answered: () => void; gone: () => void },
): Promise<RenderedChart> {
  return new Promise<RenderedChart>((resolve, reject) => {
    const onMessage = (reply: WorkerReply): void => {
      if (reply.id !== request.id) return;
      cleanUp();
      on.answered();
      if ('chart' in reply) resolve(reply.chart);
      else reject(new ChartError(reply.error.code ?? ChartErrorCode.RenderFailed, reply.error.message));
    };
    const onGone = (cause: unknown): void => {
      cleanUp();
      on.gone();
      reject(
        new ChartError(ChartErrorCode.RenderFailed, 'The chart worker stopped while rendering.', { cause }),
      );
    };
    const cleanUp = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onGone);
      worker.off('exit', onGone);
    };
    worker.ref();
    worker.on('message', onMessage);
    worker.on('error', onGone);
    worker.on('exit', onGone);
    worker.postMessage(request);
  });
}

/**
 * `size` worker threads that render charts, so not even the SVG step (compiling the spec
 * and drawing it, 20–80 ms of CPU a chart) runs on the caller's event loop. Threads start
 * on first use, are reused, and keep the process alive only while they render. Use with
 * `createChartRenderer({ concurrency: size, renderFn: pool.render })`.
 */
export function createWorkerRenderPool(size: number): WorkerRenderPool {
  const entry = workerEntry();
  const limit = Math.max(1, Math.floor(size));
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const waiting: { resolve: (worker: Worker) => void; reject: (error: Error) => void }[] = [];
  let nextId = 1;
  let closed = false;

  const start = (): Worker => {
    // node:worker_threads (and the streams it loads) on the first chart, not at start.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(entry.url, { execArgv: entry.execArgv });
    all.add(worker);
    return worker;
  };
  const acquire = (): Promise<Worker> => {
    const worker = idle.pop();
    if (worker) return Promise.resolve(worker);
    if (all.size < limit) return Promise.resolve(start());
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  const giveBack = (worker: Worker): void => {
    const next = waiting.shift();
    if (next) next.resolve(worker);
    else {
      // An idle thread must not keep the process alive; a busy one must, or a script
      // awaiting its chart would end before it arrives.
      worker.unref();
      idle.push(worker);
    }
  };

  return {
    async render(spec) {
      if (closed) throw new ChartError(ChartErrorCode.RenderFailed, 'The chart renderer is closed.');
      const worker = await acquire();
      const id = nextId++;
      return await renderOn(worker, { id, spec } satisfies WorkerRequest, {
        answered: () => giveBack(worker),
        // A thread that dies takes its render with it; the next render starts a new one.
        gone: () => {
          all.delete(worker);
          const next = waiting.shift();
          if (next && !closed) next.resolve(start());
        },
      });
    },
    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) {
        waiter.reject(
          new ChartError(ChartErrorCode.RenderFailed, 'The chart renderer was closed before this chart.'),
        );
      }
      await Promise.all([...all].map((worker) => worker.terminate()));
      all.clear();
      idle.length = 0;
    },
  };
}
