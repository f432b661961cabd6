/**
 * GET /healthz and GET /metrics, served on PORT in HTTP and Socket Mode alike.
 *
 * When /healthz turns red (503), so that an orchestrator restarts the process:
 * - the database does not answer (SQLite: the file is closed; Postgres: no answer to
 *   `SELECT 1` within DB_PING_TIMEOUT_MS): nothing can be remembered or delivered;
 * - Slack has not been reachable for longer than HEALTH_SLACK_GRACE_SECONDS (default
 *   300): in Socket Mode the WebSocket is down (or was never up), in HTTP mode auth.test
 *   has not passed since start. Short drops are normal (Slack recycles Socket Mode
 *   connections every few hours and the client reconnects by itself); a link that stays
 *   down is what a restart can fix, e.g. a client stuck after a network change.
 * Everything else is reported and stays 200: the API's reachability (a vendor outage
 * must not restart the bot, DESIGN.md, and a restart would not fix it), the scheduler's
 * state and failing jobs (they have their own alerts in the ops channel and `status`).
 */
import type { CustomRoute } from '@slack/bolt';
import type { SlackConnection } from './slack-connection.js';
import type { SlackServiceDeps } from './slack-deps.js';

type HealthDeps = Pick<SlackServiceDeps, 'store' | 'apiHealth' | 'metrics' | 'config'>;

/** An orchestrator's probe gives up after a few seconds; the answer must come before. */
const DB_PING_TIMEOUT_MS = 2000;

/** Whether the database answers, within DB_PING_TIMEOUT_MS. */
async function databaseAnswers(deps: HealthDeps): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DB_PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      deps.store.ping().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthBody(deps: HealthDeps, connection: SlackConnection) {
  const dbOpen = await databaseAnswers(deps);
  const graceMs = deps.config.healthSlackGraceSeconds * 1000;
  const slackDownMs = connection.downForMs();
  const problems: string[] = [];
  if (!dbOpen) problems.push('database_closed');
  if (slackDownMs > graceMs) problems.push('slack_unreachable');
  const scheduler = deps.metrics.schedulerState();
  return {
    ok: problems.length === 0,
    problems,
    db: dbOpen ? 'open' : 'closed',
    database: { backend: deps.store.backend, reachable: dbOpen },
    slack: {
      ...connection.snapshot(),
      downForSeconds: Math.round(slackDownMs / 1000),
      graceSeconds: deps.config.healthSlackGraceSeconds,
    },
    api: deps.apiHealth.snapshot(),
    scheduler: scheduler ?? { running: false },
  };
}

export function serviceRoutes(
  deps: HealthDeps & Pick<SlackServiceDeps, 'logger'>,
  connection: SlackConnection,
): CustomRoute[] {
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        void healthBody(deps, connection).then((body) => {
          res.writeHead(body.ok ? 200 : 503, {
            'content-type': 'application/json',
            'cache-control': 'no-store',
          });
          res.end(JSON.stringify(body));
        });
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
