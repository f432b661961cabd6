/**
 * The service's HTTP server on PORT, in both modes: /healthz and /metrics are answered
 * here (so they work before Slack does), everything else goes to `fallback` (Bolt's
 * request handler in HTTP mode) or gets a 404. Bolt's receivers would start a server of
 * their own, but only once auth.test has passed, and the Socket Mode one hides its port.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { CustomRoute } from '@slack/bolt';

export async function startRoutesServer(
  routes: readonly CustomRoute[],
  port: number,
  fallback?: RequestListener,
  host?: string,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = (req.method ?? 'GET').toUpperCase();
    const route = routes.find(
      (r) => r.path === path && (Array.isArray(r.method) ? r.method : [r.method]).includes(method),
    );
    if (route) {
      route.handler(Object.assign(req, { params: {} }), res);
      return;
    }
    if (fallback) {
      fallback(req, res);
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve();
    };
    if (host === undefined) server.listen(port, listening);
    else server.listen(port, host, listening);
  });
  return server;
}
