/**
 * GET /healthz and GET /metrics, served beside /slack/events in HTTP mode and on their own
 * server in Socket Mode. /healthz is green while the process runs and the database is
 * open; the API's reachability is reported but never turns it red (DESIGN.md: a vendor
 * outage must not restart the bot).
 */
import type { CustomRoute } from '@slack/bolt';
import type { AppDeps } from '../app-deps.js';

export function healthBody(deps: Pick<AppDeps, 'db' | 'apiHealth' | 'metrics'>, mode: string) {
  const dbOpen = deps.db.open;
  const scheduler = deps.metrics.schedulerState();
  return {
    ok: dbOpen,
    db: dbOpen ? 'open' : 'closed',
    slack: { mode },
    api: deps.apiHealth.snapshot(),
    ...(scheduler ? { scheduler } : {}),
  };
}

export function serviceRoutes(
  deps: Pick<AppDeps, 'db' | 'apiHealth' | 'metrics' | 'logger'>,
  mode: string,
): CustomRoute[] {
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        const body = healthBody(deps, mode);
        res.writeHead(body.ok ? 200 : 503, {
          'content-type': 'application/json',
          'cache-control': 'no-store',
        });
        res.end(JSON.stringify(body));
      },
    },
    {
      path: '/metrics',
      method: ['GET'],
      handler: (_req, res) => {
        deps.metrics.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': deps.metrics.registry.contentType });
            res.end(text);
          },
          (err: unknown) => {
            deps.logger.error({ err }, 'collecting metrics failed');
            res.writeHead(500);
            res.end();
          },
        );
      },
    },
  ];
}
