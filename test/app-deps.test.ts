/**
 * The process's chart renderer, built by createAppDeps: by default it renders real charts
 * in worker threads, and close() ends those threads (a chart asked for afterwards is
 * refused, not left hanging); a renderer the caller hands in is used as is and left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VisibilityApi } from '../src/api/visibility-api.js';
import { type AppDeps, type AppDepsOverrides, createAppDeps } from '../src/app-deps.js';
import { createChartRenderer } from '../src/charts/chart-renderer.js';
import { ChartError } from '../src/charts/errors.js';
import type { RenderedChart } from '../src/charts/render-chart.js';
import { loadConfig } from '../src/config.js';
import { fixtureSpecs } from './charts/chart-fixtures.js';
import { decodePng } from './charts/decode-png.js';
import { captureLogger } from './e2e/service-harness.js';

let dir: string | undefined;
let deps: AppDeps | undefined;
afterEach(async () => {
  await deps?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  deps = undefined;
  dir = undefined;
});

function build(overrides: AppDepsOverrides = {}): AppDeps {
  dir = mkdtempSync(join(tmpdir(), 'visibility-app-deps-'));
  const config = loadConfig('serve', {
    VISIBILITY_API_URL: 'http://127.0.0.1:9/',
    VISIBILITY_API_KEY: 'sk_live_00000000000000000000000000000000',
    SLACK_BOT_TOKEN: 'xoxb-test-token-0000',
    SLACK_SIGNING_SECRET: 'signing-secret-0000',
    DATABASE_PATH: join(dir, 'visibility.db'),
  });
  // No API call is made here.
  deps = createAppDeps(config, { logger: captureLogger(config, []), api: {} as VisibilityApi, ...overrides });
  return deps;
}

describe("createAppDeps' chart renderer", () => {
  it('renders a real chart in its worker threads and refuses charts once closed', async () => {
    const d = build();
    const [spec] = fixtureSpecs();
    const chart = await d.charts.render(spec!);
    const png = decodePng(chart.png);
    expect(png.width).toBe(chart.width);
    expect(png.width).toBeGreaterThan(0);
    expect(chart.altText).toBe(spec!.altText);

    await d.close();
    const refused = await d.charts.render(spec!).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ChartError);
    expect((refused as Error).message).toMatch(/closed/);
  }, 60_000);

  it('uses a renderer handed in, and close() leaves it working', async () => {
    const drawn: string[] = [];
    const charts = createChartRenderer({
      concurrency: 1,
      renderFn: async (spec): Promise<RenderedChart> => {
        drawn.push(spec.kind);
        return {
          png: new Uint8Array(),
          svg: '',
          width: 0,
          height: 0,
          altText: spec.altText,
          fileName: spec.fileName,
        };
      },
    });
    const d = build({ charts });
    expect(d.charts).toBe(charts);
    const [spec] = fixtureSpecs();
    await d.close();
    await d.charts.render(spec!);
    expect(drawn).toEqual([spec!.kind]);
  });
});
