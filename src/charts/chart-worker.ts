/**
 * The worker thread behind `createChartRenderer({ isolation: 'worker' })`: renders the
 * specs its parent posts, one at a time, so compiling and drawing a chart never holds the
 * parent's event loop. Loaded by URL (render-chart.ts), never imported.
 */
import { parentPort } from 'node:worker_threads';
import { ChartError } from './errors.js';
import { renderChart, type WorkerReply, type WorkerRequest } from './render-chart.js';

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
