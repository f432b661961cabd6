/**
 * Socket Mode needs no public HTTP endpoint, but /healthz and /metrics must still be
 * served on PORT. Bolt's SocketModeReceiver can serve custom routes, but hides its server,
 * so a port of 0 (tests) could not be learned: this small server serves them instead.
 */
import { createServer, type Server } from 'node:http';
import type { CustomRoute } from '@slack/bolt';

export async function startRoutesServer(routes: readonly CustomRoute[], port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = (req.method ?? 'GET').toUpperCase();
    const route = routes.find(
      (r) => r.path === path && (Array.isArray(r.method) ? r.method : [r.method]).includes(method),
    );
    if (!route) {
      res.writeHead(404);
      res.end();
      return;
    }
    route.handler(Object.assign(req, { params: {} }), res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
