/**
 * GET /healthz, GET /readyz and GET /metrics, served on PORT in HTTP and Socket Mode alike.
 *
 * /healthz is liveness: it turns red (503), so that an orchestrator restarts the process,
 * only when a restart can help: Slack has not been reachable for longer than
 * HEALTH_SLACK_GRACE_SECONDS (default 300): in Socket Mode the WebSocket is down (or was
 * never up), in HTTP mode auth.test has not passed since start. Short drops are normal
 * (Slack recycles Socket Mode connections every few hours and the client reconnects by
 * itself); a link that stays down is what a restart can fix, e.g. a client stuck after a
 * network change. Everything else is reported and stays 200: the API's reachability and
 * the database's (a vendor outage or a database blip must not restart every replica,
 * docs/runtime-contract.md, and a restart would not bring either back: the process recovers by itself
 * when they answer again), the scheduler's state and failing jobs (they have their own
 * alerts in the ops channel and `status`).
 *
 * /readyz is readiness: 503 until start-up has finished (Slack reached) and while the
 * database cannot be used, so a load balancer sends Slack's requests to a replica that
 * can act on them, and back once it can.
 */

import type { ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { SlackServiceDeps } from './kit/slack-deps.js';
import type { SlackConnection } from './slack-connection.js';

type HealthDeps = Pick<SlackServiceDeps, 'database' | 'apiHealth' | 'metrics' | 'config'>;

/** Whether start-up has finished (startService flips it once Slack is reached). */
type StartupState = () => boolean;

function answerJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function healthBody(deps: HealthDeps, connection: SlackConnection) {
  const database = await deps.database.check();
  const graceMs = deps.config.healthSlackGraceSeconds * 1000;
  const slackDownMs = connection.downForMs();
  const problems: string[] = [];
  if (slackDownMs > graceMs) problems.push('slack_unreachable');
  const scheduler = deps.metrics.schedulerState();
  return {
    ok: problems.length === 0,
    problems,
    db: database.reachable ? 'open' : 'unreachable',
    database,
    slack: {
      ...connection.snapshot(),
      downForSeconds: Math.round(slackDownMs / 1000),
      graceSeconds: deps.config.healthSlackGraceSeconds,
    },
    api: deps.apiHealth.snapshot(),
    scheduler: scheduler ?? { running: false },
  };
}

async function readinessBody(deps: Pick<HealthDeps, 'database'>, started: StartupState) {
  const database = await deps.database.check();
  const problems: string[] = [];
  if (!started()) problems.push('starting');
  if (!database.reachable) problems.push('database_unreachable');
  return { ready: problems.length === 0, problems, database };
}

export function serviceRoutes(
  deps: HealthDeps & Pick<SlackServiceDeps, 'logger'>,
  connection: SlackConnection,
  started: StartupState,
): CustomRoute[] {
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        void healthBody(deps, connection).then((body) => answerJson(res, body.ok ? 200 : 503, body));
      },
    },
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_req, res) => {
        void readinessBody(deps, started).then((body) => answerJson(res, body.ready ? 200 : 503, body));
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
