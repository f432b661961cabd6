/**
 * Everything the Slack service and the jobs need, built in one place: the API client
 * paced by the key's shared rate limiter, the database, the bot's Slack client, metrics.
 * The CLI verbs build it and hand each part the slice it uses (the Slack service its
 * SlackServiceDeps, jobs theirs); tests build it with overrides (a capturing logger, a
 * test clock) and otherwise run the real thing. It carries no lifecycle: what must stop
 * with the service gets the service's ServiceLifecycle (service-lifecycle.ts).
 *
 * The chart renderer is built here too, once per process: the Slack side's Chart buttons
 * and the outbox relay's digest charts share its concurrency bound, and it renders in
 * worker threads so a chart never holds the event loop an acknowledgement needs.
 *
 * Nothing here loads a package before it is used: the Slack client package when `web` is
 * first read, undici on the first API request, prom-client on the first metric, the chart
 * packages in a worker on the first chart. `run-job` with nothing to do loads none of them.
 */
import { createRequire } from 'node:module';
import type { FetchFunction, WebClient } from '@slack/web-api';
import { type BrandCache, createBrandCache } from './api/brand-cache.js';
import { ApiClient } from './api/client.js';
import { hashApiKey } from './api/hash-api-key.js';
import type { BudgetStoreFactory } from './api/limiter/budget-store.js';
import {
  createRateLimiter,
  type RateLimiterOptions,
  type SharedRateLimiter,
} from './api/limiter/create-rate-limiter.js';
import type { VisibilityApi } from './api/visibility-api.js';
import { type ApiHealth, createApiHealth } from './api-health.js';
import {
  type ChartRenderer,
  createChartRenderer,
  createWorkerRenderPool,
  DEFAULT_CHART_CONCURRENCY,
  type WorkerRenderPool,
} from './charts/chart-renderer.js';
import { type Clock, systemClock } from './clock.js';
import { type Config, secretsOf } from './config.js';
import { createDatabaseHealth, type DatabaseHealth } from './database-health.js';
import { createDeliveryNudge, type DeliveryNudge } from './delivery-nudge.js';
import { guardStore } from './guard-store.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { webClientOptions } from './slack-client/web-client-options.js';
import { sqliteWriteProbe } from './sqlite-write-probe.js';
import type { AuditLog } from './store/audit-log.js';
import { createSqliteStore, type SqliteStore } from './store/create-sqlite-store.js';
import { type Db, openDatabase } from './store/open-database.js';
import { createSqliteBudgetStore } from './store/sqlite-budget-store.js';
import type { Store } from './store/store.js';

export interface AppDeps {
  config: Config;
  api: VisibilityApi;
  /**
   * Every repository and the transaction, on SQLite or Postgres, each call watched by
   * `database` (refused at once while the database cannot be used).
   */
  store: Store;
  /** Whether the database can be used now (/healthz, /readyz, `status`, the jobs' back-off). */
  database: DatabaseHealth;
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  auditLog: AuditLog;
  /**
   * The bot's Slack client for jobs and the outbox relay (429s are returned, not waited
   * out); created, and its package loaded, when first read.
   */
  readonly web: WebClient;
  /** GET /get-brands, cached briefly: shared by commands, actions and the App Home. */
  brandCache: BrandCache;
  /** Outcome of the last API call, for /healthz. */
  apiHealth: ApiHealth;
  /** The process's one chart renderer (Chart buttons, digest charts): one bound for both. */
  charts: ChartRenderer;
  /**
   * Rung when held alerts become due now (unmute, Undo snooze, quiet hours off): the
   * process's outbox relay drains at once instead of at the end of its wait.
   */
  deliveryNudge: DeliveryNudge;
  /**
   * Closes what createAppDeps opened (API connections, limiter, chart threads, database).
   * Idempotent.
   */
  close(): Promise<void>;
}

export interface AppDepsOverrides {
  logger?: Logger;
  clock?: Clock;
  /** An already open SQLite database; it is then not closed by close(). */
  db?: Db;
  /** An already open store (Postgres: openAppDeps opens it); closed by close(). */
  store?: Store;
  api?: VisibilityApi;
  metrics?: Metrics;
  web?: WebClient;
  /** fetch for the Slack clients (tests). */
  slackFetch?: FetchFunction;
  /** Limiter knobs (tests compress time). */
  limiter?: Partial<Omit<RateLimiterOptions, 'budget' | 'keyHash' | 'plan'>>;
  /** The key's shared rate budget (openAppDeps: on Postgres); default: on the SQLite file. */
  budget?: BudgetStoreFactory;
  /**
   * A renderer of the caller's (tests: an in-process one); then no chart threads are
   * started and close() leaves it alone.
   */
  charts?: ChartRenderer;
}

/**
 * createAppDeps for the CLI verbs. With DATABASE_URL it first connects to Postgres and
 * migrates it (replicas starting together migrate once: the runner holds an advisory
 * lock); the Postgres client is loaded only then, so a SQLite install never loads it.
 */
export async function openAppDeps(config: Config, overrides: AppDepsOverrides = {}): Promise<AppDeps> {
  if (overrides.store || overrides.db || config.databaseBackend !== 'postgres' || !config.databaseUrl)
    return createAppDeps(config, overrides);
  const { openPostgresStore } = await import('./store/postgres/create-postgres-store.js');
  const { createPgBudgetStore } = await import('./store/postgres/pg-budget-store.js');
  const store = await openPostgresStore(config.databaseUrl, { clock: overrides.clock ?? systemClock });
  try {
    // One rate budget for every replica and run-job on the database.
    const budget: BudgetStoreFactory = (keyHash, c) => createPgBudgetStore(store.pool, keyHash, c);
    return createAppDeps(config, { budget, ...overrides, store });
  } catch (err) {
    await store.close();
    throw err;
  }
}

/**
 * The key's budget on SQLite, on a connection of its own to the file: a grant must never
 * join (and roll back with) a job's open transaction. An in-memory database cannot be
 * opened twice. A Postgres store handed in without a budget (openAppDeps passes the
 * shared one) keeps the process's own in memory: one process stays within the plan.
 */
function sqliteBudgetOf(store: Store): BudgetStoreFactory {
  const db = store.backend === 'sqlite' ? (store as SqliteStore).db : openDatabase(':memory:');
  const budgetDb = db.memory ? db : openDatabase(db.name);
  return (keyHash, config) =>
    createSqliteBudgetStore(budgetDb, keyHash, config, {
      ownsHandle: budgetDb !== db || store.backend !== 'sqlite',
    });
}

/**
 * What "the database can be used" means per backend: Postgres answers a query; the SQLite
 * file takes a write (reads go on while another connection holds it locked).
 */
function probeOf(store: Store): () => Promise<void> {
  return store.backend === 'sqlite' ? sqliteWriteProbe((store as SqliteStore).db) : () => store.ping();
}

const require = createRequire(import.meta.url);

/**
 * The one rate-limited client of the service: its limiter's budget lives beside the store,
 * and every response feeds the metrics and the API health.
 */
function createServiceClient(
  config: Config,
  overrides: AppDepsOverrides,
  d: { opened: Store; clock: Clock; logger: Logger; metrics: Metrics; apiHealth: ApiHealth },
): { limiter: SharedRateLimiter; client: ApiClient } {
  const limiter = createRateLimiter({
    clock: d.clock,
    logger: d.logger,
    ...overrides.limiter,
    budget: overrides.budget ?? sqliteBudgetOf(d.opened),
    keyHash: hashApiKey(config.apiKey),
    plan: config.apiPlan,
  });
  const client = new ApiClient({
    baseUrl: config.apiUrl,
    apiKey: config.apiKey,
    limiter,
    logger: d.logger,
    clock: d.clock,
    onResponse: (e) => {
      d.metrics.observeApiResponse(e);
      d.apiHealth.observe(e);
    },
  });
  return { limiter, client };
}

/**
 * The service client, made on its first use: its rate limiter opens the key's budget (a
 * second handle on the SQLite file, or a table on Postgres) and hashes the key, which a
 * `run-job` with nothing to do never needs. Every property read goes to the client, made
 * then; close() closes it only if it was made. A Proxy, unlike api/with-call-defaults.ts:
 * it adds nothing to any method, so a method added later passes through unchanged.
 */
function lazyServiceClient(
  make: () => ReturnType<typeof createServiceClient>,
  logger: Logger,
): { api: VisibilityApi; close(): Promise<void> } {
  let made: ReturnType<typeof createServiceClient> | undefined;
  const client = () => {
    made ??= make();
    return made.client;
  };
  const api = new Proxy({} as VisibilityApi, {
    get(_target, property) {
      const real = client();
      const value: unknown = Reflect.get(real, property, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
  return {
    api,
    async close() {
      if (!made) return;
      await made.client
        .close()
        .catch((err: unknown) => logger.warn({ err }, 'closing the API client failed'));
      await made.limiter.close();
    },
  };
}

/** The Slack client, made on first use (the override when a test gives one). */
function lazySlackClient(
  config: Config,
  overrides: AppDepsOverrides,
  logger: Logger,
  metrics: Metrics,
): () => WebClient {
  let web = overrides.web;
  // @slack/web-api is CommonJS: a synchronous require lets `web` stay a plain property.
  return (): WebClient => {
    web ??= new (require('@slack/web-api') as typeof import('@slack/web-api')).WebClient(
      config.slackBotToken,
      webClientOptions(config, 'outbox', {
        logger,
        metrics,
        ...(overrides.slackFetch ? { fetch: overrides.slackFetch } : {}),
      }),
    );
    return web;
  };
}

export function createAppDeps(config: Config, overrides: AppDepsOverrides = {}): AppDeps {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const clock = overrides.clock ?? systemClock;
  const opened =
    overrides.store ??
    createSqliteStore(overrides.db ?? openDatabase(config.databasePath), {
      clock,
      closesDatabase: !overrides.db,
    });
  const database = createDatabaseHealth({ backend: opened.backend, probe: probeOf(opened), clock, logger });
  const store = guardStore(opened, database);
  const metrics = overrides.metrics ?? createMetrics();
  const apiHealth = createApiHealth(clock);

  const service = overrides.api
    ? { api: overrides.api, close: async () => {} }
    : lazyServiceClient(
        () => createServiceClient(config, overrides, { opened, clock, logger, metrics, apiHealth }),
        logger,
      );
  const { api } = service;
  metrics.bindLimiter(() => api.limiterState());

  const slackClient = lazySlackClient(config, overrides, logger, metrics);

  // Threads start on the first chart, so a process that draws none never starts one.
  let chartPool: WorkerRenderPool | undefined;
  let charts = overrides.charts;
  if (!charts) {
    chartPool = createWorkerRenderPool(DEFAULT_CHART_CONCURRENCY);
    charts = createChartRenderer({ concurrency: DEFAULT_CHART_CONCURRENCY, renderFn: chartPool.render });
  }

  let closed = false;
  return {
    config,
    api,
    store,
    database,
    logger,
    metrics,
    clock,
    auditLog: store.auditLog,
    get web() {
      return slackClient();
    },
    brandCache: createBrandCache(api, clock),
    apiHealth,
    charts,
    deliveryNudge: createDeliveryNudge(),
    async close() {
      if (closed) return;
      closed = true;
      await chartPool
        ?.close()
        .catch((err: unknown) => logger.warn({ err }, 'stopping the chart threads failed'));
      await service.close();
      database.close();
      await store.close().catch((err: unknown) => logger.warn({ err }, 'closing the database failed'));
    },
  };
}
