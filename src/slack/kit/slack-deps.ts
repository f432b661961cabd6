/**
 * What the Slack side may use, by name. `SlackServiceDeps` is what the service is built
 * from: the process's parts minus what only the process owns (closing them, the bot's
 * outbox client for jobs), and of the config only what the service reads: the Slack
 * credentials its Bolt app and receiver send, never the API key or the database URL.
 * `SlackDeps` is what a command, button, modal submission or App
 * Home handler receives: the same parts, but of the config only the settings handlers
 * read (no token, key or signing secret within reach of a reply), plus `background`, work
 * that outlives a reply and stops with the service. Shared helpers take a
 * `Pick<SlackDeps, …>` of what they read.
 */

import type { BrandCache } from '../../api/brand-cache.js';
import type { VisibilityApi } from '../../api/visibility-api.js';
import type { ApiHealth } from '../../api-health.js';
import type { ChartRenderer } from '../../charts/chart-renderer.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { DatabaseHealth } from '../../database-health.js';
import type { DeliveryNudge } from '../../delivery-nudge.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import type { AuditLog } from '../../store/audit-log.js';
import type { Store } from '../../store/store.js';
import type { BackgroundWork } from './background-work.js';

/** The settings a handler reads: who may change brands, the digests' default time zone, how long rows are kept (`status`). */
export type HandlerConfig = Pick<Config, 'adminUsers' | 'defaultTimezone' | 'retention'>;

/**
 * What the service reads of the config: the Slack token, signing secret or app token (the
 * Bolt app and its receiver send them), the Slack API's address, /healthz and /metrics
 * settings, and what its handlers read.
 */
export type SlackServiceConfig = HandlerConfig &
  Pick<
    Config,
    | 'slackBotToken'
    | 'slackSigningSecret'
    | 'slackAppToken'
    | 'slackApiUrl'
    | 'healthSlackGraceSeconds'
    | 'metricsPort'
    | 'metricsHost'
  >;

/** What the service and its handlers share. */
interface SlackParts {
  /** In a handler: the request's view (interactive lane, arrival order; request-deps.ts). */
  api: VisibilityApi;
  /** GET /get-brands, cached briefly; in a handler, fetching through the request's api. */
  brandCache: BrandCache;
  store: Store;
  /** Whether the database can be used now; what is owed to it meanwhile (audit entries). */
  database: Omit<DatabaseHealth, 'close'>;
  auditLog: AuditLog;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** Outcome of the last API call (/healthz, `status`). */
  apiHealth: ApiHealth;
  /** The process's chart renderer: its bound is shared with the outbox relay's digest charts. */
  charts: ChartRenderer;
  /** Rung after held alerts were released, so this process's relay posts them at once. */
  deliveryNudge: DeliveryNudge;
}

export interface SlackServiceDeps extends SlackParts {
  config: SlackServiceConfig;
}

export interface SlackDeps extends SlackParts {
  config: HandlerConfig;
  background: BackgroundWork;
}

/**
 * The handlers' deps, picked by name from the service's: an object built with more
 * (AppDeps, with close() and the outbox client) hands on only these.
 */
export function slackDepsOf(deps: SlackServiceDeps, background: BackgroundWork): SlackDeps {
  const { adminUsers, defaultTimezone, retention } = deps.config;
  return { ...slackPartsOf(deps), config: { adminUsers, defaultTimezone, retention }, background };
}

/** The parts the Slack service shares with its handlers, picked by name (not the rest of AppDeps). */
function slackPartsOf(deps: SlackParts): SlackParts {
  return {
    api: deps.api,
    brandCache: deps.brandCache,
    store: deps.store,
    database: deps.database,
    auditLog: deps.auditLog,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    apiHealth: deps.apiHealth,
    charts: deps.charts,
    deliveryNudge: deps.deliveryNudge,
  };
}

/**
 * The service's deps out of the process's (AppDeps, with the whole config, close() and
 * the bot's outbox client): the Slack side never holds the API key or the database URL.
 */
export function slackServiceDepsOf(deps: SlackServiceDeps): SlackServiceDeps {
  const c = deps.config;
  return {
    ...slackPartsOf(deps),
    config: {
      adminUsers: c.adminUsers,
      defaultTimezone: c.defaultTimezone,
      retention: c.retention,
      slackBotToken: c.slackBotToken,
      slackSigningSecret: c.slackSigningSecret,
      slackAppToken: c.slackAppToken,
      slackApiUrl: c.slackApiUrl,
      healthSlackGraceSeconds: c.healthSlackGraceSeconds,
      metricsPort: c.metricsPort,
      metricsHost: c.metricsHost,
    },
  };
}
