/**
 * The bound on concurrent renders, counted rather than timed: a stand-in render function
 * records how many renders are in flight and finishes only when the test says so. And the
 * worker-thread pool, rendering real charts.
 */
import { describe, expect, it } from 'vitest';
import {
  createChartRenderer,
  createWorkerRenderPool,
  DEFAULT_CHART_CONCURRENCY,
} from '../../src/charts/chart-renderer.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { ChartError, ChartErrorCode } from '../../src/charts/errors.js';
import { type RenderedChart, renderChartSvg } from '../../src/charts/render-chart.js';
import { fixtureSpecs } from './chart-fixtures.js';
import { decodePng } from './decode-png.js';

interface Pending {
  spec: ChartSpec;
  finish: () => void;
  fail: (error: Error) => void;
}

function controlledRenders() {
  const pending: Pending[] = [];
  const started: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const renderFn = (spec: ChartSpec): Promise<RenderedChart> =>
    new Promise<RenderedChart>((resolve, reject) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      started.push(spec.fileName);
      const done = (): void => {
        inFlight -= 1;
      };
      pending.push({
        spec,
        finish: () => {
          done();
          resolve({
            png: new Uint8Array(),
            svg: '',
            width: 0,
            height: 0,
            altText: spec.altText,
            fileName: spec.fileName,
          });
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
    });
  return {
    renderFn,
    pending,
    started,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

/** Lets queued promise callbacks run (no timers: only the microtask and immediate queues). */
async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

function specs(n: number): ChartSpec[] {
  const [base] = fixtureSpecs();
  return Array.from({ length: n }, (_, i) => ({ ...base!, fileName: `chart-${i}.png` }));
}

describe('createChartRenderer', () => {
  it('runs at most `concurrency` renders at once and starts the rest in call order', async () => {
    const renders = controlledRenders();
    const renderer = createChartRenderer({ concurrency: 2, renderFn: renders.renderFn });
    const results = specs(5).map((spec) => renderer.render(spec));
    await settle();
    expect(renders.started).toEqual(['chart-0.png', 'chart-1.png']);

    renders.pending[1]!.finish();
    await settle();
    expect(renders.started).toEqual(['chart-0.png', 'chart-1.png', 'chart-2.png']);
    expect(renders.inFlight).toBe(2);

    // Finish the oldest render until none is left; each finish lets one waiter start.
    while (renders.pending.length > 0) {
      renders.pending.shift()!.finish();
      await settle();
      expect(renders.inFlight).toBeLessThanOrEqual(2);
    }
    const done = await Promise.all(results);
    expect(done.map((r) => r.fileName)).toEqual(specs(5).map((s) => s.fileName));
    expect(renders.started).toHaveLength(5);
    expect(renders.maxInFlight).toBe(2);
  });

  it('frees the slot of a failed render and hands the error to its caller only', async () => {
    const renders = controlledRenders();
    const renderer = createChartRenderer({ concurrency: 1, renderFn: renders.renderFn });
    const [a, b] = specs(2);
    const first = renderer.render(a!);
    const second = renderer.render(b!);
    await settle();
    expect(renders.started).toEqual(['chart-0.png']);
    renders.pending.shift()!.fail(new Error('vega broke'));
    await expect(first).rejects.toThrow('vega broke');
    await settle();
    expect(renders.started).toEqual(['chart-0.png', 'chart-1.png']);
    renders.pending.shift()!.finish();
    await expect(second).resolves.toMatchObject({ fileName: 'chart-1.png' });
    expect(renders.maxInFlight).toBe(1);
  });

  it('treats a concurrency below 1 as 1, and defaults to a small bound', async () => {
    const renders = controlledRenders();
    const renderer = createChartRenderer({ concurrency: 0, renderFn: renders.renderFn });
    const all = specs(3).map((spec) => renderer.render(spec));
    await settle();
    expect(renders.inFlight).toBe(1);
    for (let i = 0; i < 3; i++) {
      renders.pending.shift()!.finish();
      await settle();
    }
    await Promise.all(all);
    expect(renders.maxInFlight).toBe(1);
    expect(DEFAULT_CHART_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(DEFAULT_CHART_CONCURRENCY).toBeLessThanOrEqual(4);
  });

  it('renders real charts through the bound', async () => {
    const renderer = createChartRenderer();
    const rendered = await Promise.all(
      fixtureSpecs()
        .slice(0, 3)
        .map((spec) => renderer.render(spec)),
    );
    expect(rendered.map((r) => r.png.length > 1000)).toEqual([true, true, true]);
  });
});

describe('createWorkerRenderPool', () => {
  it('renders in worker threads through the bound, and reports a broken spec as a ChartError', async () => {
    const pool = createWorkerRenderPool(2);
    try {
      const renderer = createChartRenderer({ concurrency: 2, renderFn: pool.render });
      // Two kinds are enough to see both threads work; each thread loads vega on start.
      const expected = fixtureSpecs().slice(2);
      const rendered = await Promise.all(expected.map((spec) => renderer.render(spec)));
      for (const [i, chart] of rendered.entries()) {
        const image = decodePng(chart.png);
        expect({ width: image.width, height: image.height }).toEqual({
          width: chart.width,
          height: chart.height,
        });
        expect(chart.altText).toBe(expected[i]!.altText);
        // The same picture as in this thread: the SVG matches the golden file's renderer.
        expect(chart.svg).toBe(await renderChartSvg(expected[i]!));
      }
      const broken = {
        ...expected[0]!,
        vegaLite: {
          data: { values: [] },
          mark: 'line',
          encoding: { x: { field: 'a', type: 'nonsense' } },
        } as never,
      };
      const error = await renderer.render(broken).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChartError);
      expect((error as ChartError).code).toBe(ChartErrorCode.RenderFailed);
      // The thread survived the failure and renders again.
      await expect(renderer.render(expected[1]!)).resolves.toMatchObject({ fileName: expected[1]!.fileName });
    } finally {
      await pool.close();
    }
    await expect(pool.render(fixtureSpecs()[0]!)).rejects.toThrow('closed');
    // Starting threads that load tsx and vega takes seconds on a busy 2-core machine.
  }, 60_000);
});
