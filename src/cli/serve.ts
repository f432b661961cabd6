/**
 * `visibility-bot serve`: the Slack service and its extensions (the scheduler, see
 * serve-extensions.ts), started on the service's lifecycle once it listens, until
 * SIGTERM/SIGINT or `signal` aborts. Shutdown is graceful: stop taking requests, let
 * acked commands finish (bounded), abort the lifecycle and wait for the extensions and
 * background work to stop, close the database. Resolves 0 after a clean stop, 1 when the
 * service cannot start.
 */
import { type AppDepsOverrides, openAppDeps } from '../app-deps.js';
import type { Config } from '../config.js';
import { startService } from '../slack/create-slack-app.js';
import { slackServiceDepsOf } from '../slack/kit/slack-deps.js';
import { type ServeExtension, serveExtensions } from './serve-extensions.js';

interface ServeOptions {
  /** Aborting it shuts the service down like SIGTERM (tests run serve in-process). */
  signal?: AbortSignal;
  /** Listen to SIGTERM/SIGINT; default true. */
  handleSignals?: boolean;
  overrides?: AppDepsOverrides;
  /** Called with the service URL once it listens. */
  onListening?: (url: string) => void;
  drainTimeoutMs?: number;
  /** Default: serve-extensions.ts (the scheduler). */
  extensions?: readonly ServeExtension[];
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Slack errors carry their code in `data.error` (e.g. invalid_auth); say that, not a stack. */
function startFailure(err: unknown): string {
  const slackError = (err as { data?: { error?: unknown } } | undefined)?.data?.error;
  if (typeof slackError === 'string')
    return `Slack refused auth.test (${slackError}): check SLACK_BOT_TOKEN and SLACK_API_URL.`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Resolves with what asked for the shutdown. The signal handlers are removed at once, so
 * a second Ctrl-C during a slow shutdown gets Node's default: exit now.
 */
function waitForShutdown(signal: AbortSignal | undefined, handleSignals: boolean): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (sig: NodeJS.Signals) => done(sig);
    const onAbort = () => done('abort');
    function done(reason: string) {
      if (handleSignals) for (const s of SIGNALS) process.off(s, onSignal);
      signal?.removeEventListener('abort', onAbort);
      resolve(reason);
    }
    if (handleSignals) for (const s of SIGNALS) process.on(s, onSignal);
    if (signal?.aborted) done('abort');
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function runServe(config: Config, options: ServeOptions = {}): Promise<number> {
  const deps = await openAppDeps(config, options.overrides);
  const log = deps.logger.child({ component: 'serve' });
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    // The Slack side gets its Slack credentials, not the API key or the database URL.
    service = await startService(slackServiceDepsOf(deps), {
      port: config.port,
      ...(options.drainTimeoutMs !== undefined ? { drainTimeoutMs: options.drainTimeoutMs } : {}),
    });
    for (const extend of options.extensions ?? serveExtensions) extend(deps, service.lifecycle);
  } catch (err) {
    log.error({ err }, `could not start: ${startFailure(err)}`);
    await service?.stop();
    await deps.close();
    return 1;
  }
  log.info(
    { url: service.url, metricsUrl: service.metricsUrl, mode: service.mode },
    `visibility-bot is listening on ${service.url}`,
  );
  options.onListening?.(service.url);

  // Last resort: a promise some library leaves rejected must not end the process (Node's
  // default), only be logged. Requests themselves are guarded in guarded-http-receiver.ts.
  const onUnhandled = (reason: unknown) =>
    log.error(
      { err: reason, code: 'unhandled_rejection' },
      'an unhandled rejection was logged; still serving',
    );
  const ownsProcess = options.handleSignals !== false;
  if (ownsProcess) process.on('unhandledRejection', onUnhandled);
  const reason = await waitForShutdown(options.signal, ownsProcess);
  log.info({ reason }, 'shutting down: no new requests, finishing the ones in flight');
  await service.stop();
  await deps.close();
  if (ownsProcess) process.off('unhandledRejection', onUnhandled);
  log.info('stopped');
  await new Promise<void>((resolve) => deps.logger.flush(() => resolve()));
  return 0;
}
