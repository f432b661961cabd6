/**
 * The worker thread behind `createWorkerRenderPool` (chart-renderer.ts): renders the
 * specs its parent posts, one at a time, so compiling and drawing a chart never holds the
 * parent's event loop. Loaded by URL (chart-renderer.ts), never imported.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './chart-renderer.js';
import { ChartError } from './errors.js';
import { renderChart } from './render-chart.js';

const port = parentPort;
if (port) {
  port.on('message', async ({ id, spec }: WorkerRequest) => {
    let reply: WorkerReply;
    try {
      reply = { id, chart: await renderChart(spec) };
    } catch (error) {
      reply = {
        id,
        error: {
          code: error instanceof ChartError ? error.code : undefined,
          message: error instanceof Error ? error.message : String(error),
        },
      };
    }
    port.postMessage(reply);
  });
}
