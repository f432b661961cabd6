/**
 * The Bolt app and the service around it. HTTP mode (POST /slack/events, signed requests)
 * or Socket Mode, chosen by select-receiver.ts; /healthz and /metrics in both. Bolt logs
 * through pino (scrubbed), every Slack client honours SLACK_API_URL and our retry policy
 * (web-client-options.ts), and listeners are registered per Slack surface.
 */
import type { RequestListener } from 'node:http';
import { App, type CustomRoute, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import { createServiceLifecycle, type ServiceLifecycle } from '../service-lifecycle.js';
import { boltLogger } from '../slack-client/bolt-logger.js';
import { webClientOptions } from '../slack-client/web-client-options.js';
import { awaitSlack, createSlackConnector, reasonOf } from './connect-to-slack.js';
import { createReceiver } from './create-receiver.js';
import { createInFlight, type InFlight } from './in-flight.js';
import { createBackgroundWork } from './kit/background-work.js';
import { createGuestCheck } from './kit/guest-check.js';
import { type SlackServiceDeps, slackDepsOf } from './kit/slack-deps.js';
import { register as registerActions } from './routers/actions/index.js';
import { register as registerCommands } from './routers/commands/index.js';
import { register as registerEvents } from './routers/events/index.js';
import { register as registerSteps } from './routers/steps/index.js';
import { register as registerSubmissions } from './routers/submissions/index.js';
import { type ReceiverChoice, selectReceiver } from './select-receiver.js';
import { serviceRoutes } from './service-routes.js';
import { closeServer, gateUntilReady, startServiceServers, urlOf } from './service-servers.js';
import {
  createSlackConnection,
  type EventSource,
  type SlackConnection,
  watchSocketModeClient,
} from './slack-connection.js';

interface SlackApp {
  app: App;
  mode: ReceiverChoice['mode'];
  /** /healthz, /readyz and /metrics; startService serves them on its own server in both modes. */
  routes: CustomRoute[];
  /** Start-up has finished (Slack reached): /readyz may turn green. */
  markStarted(): void;
  inFlight: InFlight;
  /** Whether Slack can reach the app (for /healthz). */
  connection: SlackConnection;
  /** HTTP mode: Bolt's request handler for /slack/events (the receiver's own server is not used). */
  requestListener: RequestListener | undefined;
  /** Socket Mode: the client, whose `disconnected` event asks for a reconnect. */
  socketClient: EventSource | undefined;
}

/**
 * The Bolt app with every listener registered. Handlers get the narrow SlackDeps, with
 * `background` running under `lifecycle` (the service's; startService stops it).
 */
function createSlackApp(deps: SlackServiceDeps, lifecycle: ServiceLifecycle): SlackApp {
  const choice = selectReceiver(deps.config);
  const connection = createSlackConnection(choice.mode, deps.clock, deps.logger);
  let started = false;
  const routes = serviceRoutes(deps, connection, () => started);
  // Every apps.connections.open attempt (the Socket Mode client's own retries included)
  // passes through our instrumented fetch: counting them there tells /healthz how often
  // the client has tried since the link went down.
  const receiverDeps: Parameters<typeof createReceiver>[0] = {
    config: deps.config,
    clock: deps.clock,
    store: deps.store,
    database: deps.database,
    logger: deps.logger,
    metrics: {
      ...deps.metrics,
      observeSlackCall(method, outcome, error) {
        deps.metrics.observeSlackCall(method, outcome, error);
        if (method !== 'apps.connections.open') return;
        connection.attempt();
        if (outcome !== 'ok') connection.down('connecting', `apps.connections.open: ${error ?? outcome}`);
      },
    },
  };
  // startService reconnects the socket itself (connect-to-slack.ts): the client's own reconnect
  // rejects unhandled when apps.connections.open fails, and its 100 retries of that call
  // stretch to hours between attempts.
  // No custom routes for Bolt: startService's server answers /healthz and /metrics itself,
  // before Slack is reachable, and /metrics only where METRICS_PORT puts it.
  const receiver = createReceiver(receiverDeps, choice, [], {
    autoReconnectEnabled: false,
    retryConfig: { retries: 0 },
  });
  if (receiver instanceof SocketModeReceiver) watchSocketModeClient(receiver.client, connection);
  const app = new App({
    receiver,
    token: deps.config.slackBotToken,
    logger: boltLogger(deps.logger),
    clientOptions: webClientOptions(deps.config, 'interactive', deps),
    // auth.test runs in startService, where a bad token becomes a clear error and an
    // unreachable Slack is retried in the background.
    deferInitialization: true,
  });
  const inFlight = createInFlight();
  app.use(async ({ next }) => {
    await inFlight.track(next());
  });
  app.error(async (error) => {
    deps.logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  // One guest cache for commands, buttons and the App Home: one users.info per person.
  const guestCheck = createGuestCheck(deps.clock);
  const handlerDeps = slackDepsOf(deps, createBackgroundWork(lifecycle, deps.logger));
  registerCommands(app, handlerDeps, { guestCheck });
  registerActions(app, handlerDeps, { guestCheck });
  registerSubmissions(app, handlerDeps);
  registerEvents(app, handlerDeps, { guestCheck });
  registerSteps(app, handlerDeps, { guestCheck });
  return {
    app,
    mode: choice.mode,
    routes,
    markStarted: () => {
      started = true;
    },
    inFlight,
    connection,
    requestListener: receiver instanceof HTTPReceiver ? receiver.requestListener : undefined,
    socketClient: receiver instanceof SocketModeReceiver ? receiver.client : undefined,
  };
}

export interface StartServiceOptions {
  port: number;
  /**
   * How long shutdown waits for acked commands to finish; default 8 s, so the whole stop
   * fits in the 10 s Docker and Kubernetes give between SIGTERM and SIGKILL.
   */
  drainTimeoutMs?: number;
  /**
   * How long start-up waits for Slack before it starts the scheduler anyway and keeps
   * connecting in the background; default 10 s. A refused token found within that time
   * still fails the start.
   */
  slackWaitMs?: number;
  /** Pause between attempts to reach Slack (start-up, Socket Mode reconnects): first, then at most; default 1 s, 60 s. */
  slackRetryMs?: { first: number; max: number };
}

export interface RunningService {
  url: string;
  /** Where GET /metrics is served: `url`, or the METRICS_PORT server. */
  metricsUrl: string;
  mode: ReceiverChoice['mode'];
  connection: SlackConnection;
  /**
   * Long-running parts started alongside the service (the scheduler) take this: its
   * signal aborts on stop(), after the requests in flight finished, and stop() waits for
   * what they hand to waitFor before it resolves.
   */
  lifecycle: ServiceLifecycle;
  stop(): Promise<void>;
}

/**
 * Starts the Slack service on `port` (0 = any free port) and resolves once it is ready
 * for the caller to start the scheduler on its lifecycle. The port answers /healthz at
 * once; Slack is then connected: auth.test (Bolt's init), and in Socket Mode the
 * WebSocket. When Slack cannot be reached, it still resolves after `slackWaitMs` (alerts
 * already queued are delivered by the bot's own Web API client as soon as Slack answers)
 * and the connection is retried in the background; /healthz reports it. Only a definite
 * refusal of a token at start-up fails it.
 */
export async function startService(
  deps: SlackServiceDeps,
  options: StartServiceOptions,
): Promise<RunningService> {
  const log = deps.logger.child({ component: 'service' });
  // The service owns its lifecycle; serve starts its extensions on it (RunningService).
  const lifecycle = createServiceLifecycle(log);
  const slack = createSlackApp(deps, lifecycle);
  const { app, mode, routes, inFlight, connection } = slack;
  const drainTimeoutMs = options.drainTimeoutMs ?? 8_000;
  const stopSignal = new AbortController();
  let ready = false;

  const { metricsPort, metricsHost } = deps.config;
  const slackHandler = gateUntilReady(slack.requestListener, () => ready);
  const { server, metricsServer } = await startServiceServers(
    routes,
    { port: options.port, metricsPort, metricsHost },
    slackHandler,
  );
  const connector = createSlackConnector({
    slack,
    clock: deps.clock,
    log,
    retry: options.slackRetryMs ?? { first: 1_000, max: 60_000 },
    signal: stopSignal.signal,
    onReady: () => {
      ready = true;
    },
  });
  const connecting = connector.connectOnce(true);
  try {
    await awaitSlack(connecting, options.slackWaitMs ?? 10_000, log);
  } catch (err) {
    stopSignal.abort();
    await closeServer(server, 0);
    if (metricsServer) await closeServer(metricsServer, 0);
    throw err;
  }
  connecting.catch((err: unknown) => log.error({ err }, `connecting to Slack failed: ${reasonOf(err)}`));
  const url = urlOf(server);

  let stopping: Promise<void> | undefined;
  const stop = async () => {
    stopSignal.abort();
    // Stop taking requests (HTTP server or socket), then let acked work finish.
    if (mode === 'http') await closeServer(server, Math.min(drainTimeoutMs, 1000));
    else
      await app
        .stop()
        .catch((err: unknown) => log.warn({ err }, 'closing the Socket Mode connection failed'));
    connection.stopped();
    if (!(await inFlight.drain(drainTimeoutMs))) {
      log.warn(
        { pending: inFlight.size, drainTimeoutMs },
        'shutdown did not wait for every in-flight command',
      );
    }
    // Then the long-running parts (the scheduler, background follow-ups): before the
    // caller closes the database.
    await lifecycle.stop();
    if (mode === 'socket') await closeServer(server, 0);
    if (metricsServer) await closeServer(metricsServer, 0);
  };
  return {
    url,
    metricsUrl: metricsServer ? urlOf(metricsServer) : url,
    mode,
    connection,
    lifecycle,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
