/**
 * The Bolt app and the service around it. HTTP mode (POST /slack/events, signed requests)
 * or Socket Mode, chosen by select-receiver.ts; /healthz and /metrics in both. Bolt logs
 * through pino (scrubbed), every Slack client honours SLACK_API_URL and our retry policy
 * (web-client-options.ts), and listeners are registered per Slack surface.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type CustomRoute } from '@slack/bolt';
import type { AppDeps } from '../app-deps.js';
import { register as registerActions } from './actions/index.js';
import { boltLogger } from './bolt-logger.js';
import { register as registerCommands } from './commands/index.js';
import { createReceiver } from './create-receiver.js';
import { register as registerEvents } from './events/index.js';
import { createGuestCheck } from './guest-check.js';
import { createInFlight, type InFlight } from './in-flight.js';
import { startRoutesServer } from './routes-server.js';
import { type ReceiverChoice, selectReceiver } from './select-receiver.js';
import { serviceRoutes } from './service-routes.js';
import { register as registerSubmissions } from './submissions/index.js';
import { webClientOptions } from './web-client-options.js';

export interface SlackApp {
  app: App;
  mode: ReceiverChoice['mode'];
  /** /healthz and /metrics (Socket Mode serves them itself, see startService). */
  routes: CustomRoute[];
  inFlight: InFlight;
}

export function createSlackApp(deps: AppDeps): SlackApp {
  const choice = selectReceiver(deps.config);
  const routes = serviceRoutes(deps, choice.mode);
  const app = new App({
    receiver: createReceiver(deps, choice, routes),
    token: deps.config.slackBotToken,
    logger: boltLogger(deps.logger),
    clientOptions: webClientOptions(deps.config, 'interactive', deps),
    // auth.test runs in startService, where a bad token becomes a clear error.
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
  registerCommands(app, deps, { guestCheck });
  registerActions(app, deps, { guestCheck });
  registerSubmissions(app, deps);
  registerEvents(app, deps, { guestCheck });
  return { app, mode: choice.mode, routes, inFlight };
}

export interface StartServiceOptions {
  port: number;
  /**
   * How long shutdown waits for acked commands to finish; default 8 s, so the whole stop
   * fits in the 10 s Docker and Kubernetes give between SIGTERM and SIGKILL.
   */
  drainTimeoutMs?: number;
}

export interface RunningService {
  url: string;
  mode: ReceiverChoice['mode'];
  stop(): Promise<void>;
}

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Idle keep-alive sockets are closed by close(); a straggler is cut after the grace time.
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Starts the Slack service on `port` (0 = any free port) and runs `deps.onStart`. */
export async function startService(deps: AppDeps, options: StartServiceOptions): Promise<RunningService> {
  const { app, mode, routes, inFlight } = createSlackApp(deps);
  const drainTimeoutMs = options.drainTimeoutMs ?? 8_000;
  await app.init();

  let server: Server;
  if (mode === 'http') {
    server = (await app.start(options.port)) as Server;
  } else {
    server = await startRoutesServer(routes, options.port);
    await app.start().catch(async (err: unknown) => {
      await closeServer(server, 0);
      throw err;
    });
  }
  const url = urlOf(server);
  for (const hook of deps.onStart) await hook();

  let stopping: Promise<void> | undefined;
  const stop = async () => {
    const log = deps.logger.child({ component: 'service' });
    // Stop taking requests (HTTP server or socket), then let acked work finish.
    if (mode === 'http') await closeServer(server, Math.min(drainTimeoutMs, 1000));
    else
      await app
        .stop()
        .catch((err: unknown) => log.warn({ err }, 'closing the Socket Mode connection failed'));
    if (!(await inFlight.drain(drainTimeoutMs))) {
      log.warn(
        { pending: inFlight.size, drainTimeoutMs },
        'shutdown did not wait for every in-flight command',
      );
    }
    for (const hook of [...deps.onStop].reverse()) {
      try {
        await hook();
      } catch (err) {
        log.error({ err }, 'a stop hook failed');
      }
    }
    if (mode === 'socket') await closeServer(server, 0);
  };
  return {
    url,
    mode,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
