/**
 * The HTTP servers of `serve`: PORT (/healthz, /readyz, /metrics, and Slack's requests in
 * HTTP mode) and, with METRICS_PORT, /metrics on a port of its own (e.g. reachable only
 * from the monitoring network), and then not on PORT.
 */
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomRoute } from '@slack/bolt';
import { startRoutesServer } from './routes-server.js';

export interface ServiceServers {
  server: Server;
  metricsServer: Server | undefined;
}

export function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Idle keep-alive sockets are closed by close(); a straggler is cut after the grace time.
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Bolt's handler, answering 503 until `ready()` (before auth.test Bolt cannot route; Slack retries a 503). */
export function gateUntilReady(
  requestListener: RequestListener | undefined,
  ready: () => boolean,
): RequestListener | undefined {
  if (!requestListener) return undefined;
  return (req, res) => {
    if (!ready()) {
      res.writeHead(503, { 'retry-after': '5' });
      res.end();
      return;
    }
    try {
      requestListener(req, res);
    } catch {
      // Bolt throws for paths it does not serve (its own server answers them 404).
      if (!res.headersSent) res.writeHead(404);
      res.end();
    }
  };
}

/** Starts the servers; when the metrics one cannot start, the main one is closed again. */
export async function startServiceServers(
  routes: readonly CustomRoute[],
  ports: { port: number; metricsPort: number | undefined; metricsHost: string | undefined },
  slackHandler: RequestListener | undefined,
): Promise<ServiceServers> {
  const { metricsPort, metricsHost } = ports;
  const isMetrics = (r: CustomRoute) => r.path === '/metrics';
  const server = await startRoutesServer(
    metricsPort !== undefined ? routes.filter((r) => !isMetrics(r)) : routes,
    ports.port,
    slackHandler,
  );
  if (metricsPort === undefined) return { server, metricsServer: undefined };
  try {
    return {
      server,
      metricsServer: await startRoutesServer(routes.filter(isMetrics), metricsPort, undefined, metricsHost),
    };
  } catch (err) {
    await closeServer(server, 0);
    throw err;
  }
}
