/**
 * Reaching Slack from `serve`: auth.test (Bolt's init), then in Socket Mode the WebSocket,
 * retried with doubling pauses until it works or the service stops. A dropped socket is
 * reconnected by the same loop. Start-up waits for it only so long (startService).
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { EventSource, SlackConnection } from './slack-connection.js';

interface SlackConnectorOptions {
  /** The parts of the Slack app (create-slack-app.ts) that connect. */
  slack: {
    app: { init(): Promise<void>; start(): Promise<unknown> };
    mode: 'http' | 'socket';
    connection: SlackConnection;
    markStarted(): void;
    socketClient: EventSource | undefined;
  };
  clock: Clock;
  log: Logger;
  /** Pause between attempts: first, then doubling up to max. */
  retry: { first: number; max: number };
  /** Aborted when the service stops: no more attempts. */
  signal: AbortSignal;
  /** Slack was reached: requests may be routed. */
  onReady(): void;
}

interface SlackConnector {
  /**
   * Connects, or joins the attempt under way. With `failOnRefusal` (start-up), a token
   * Slack refuses on the first try rejects it: retrying cannot help.
   */
  connectOnce(failOnRefusal?: boolean): Promise<void>;
}

/** Slack answered and said no (invalid_auth, not_authed…): retrying cannot help. */
function isRefusal(err: unknown): boolean {
  return typeof (err as { data?: { error?: unknown } } | undefined)?.data?.error === 'string';
}

/** Slack's error code, or the error's message. */
export const reasonOf = (err: unknown): string => {
  const code = (err as { data?: { error?: unknown } } | undefined)?.data?.error;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
};

export function createSlackConnector(o: SlackConnectorOptions): SlackConnector {
  const { slack, clock, log, retry, signal } = o;
  const { app, connection } = slack;
  let initialized = false;

  /**
   * auth.test, then (Socket Mode) the WebSocket; retried until it works or stop(). At
   * start-up a refused token ends it (retrying cannot help; serve exits with the reason).
   */
  const connect = async (failOnRefusal: boolean): Promise<void> => {
    let pause = retry.first;
    for (let first = failOnRefusal; !signal.aborted; first = false) {
      try {
        if (!initialized) {
          connection.attempt();
          await app.init();
          initialized = true;
        }
        if (slack.mode === 'http') connection.up();
        else await app.start();
        o.onReady();
        slack.markStarted();
        return;
      } catch (err) {
        if (first && isRefusal(err)) throw err;
        connection.down('connecting', reasonOf(err));
        log.warn(
          { err, retryInMs: pause },
          `Slack is not reachable yet (${reasonOf(err)}); the scheduler runs meanwhile, retrying`,
        );
      }
      await clock.sleep(pause, signal).catch(() => undefined);
      pause = Math.min(pause * 2, retry.max);
    }
  };

  let loop: Promise<void> | undefined;
  const connectOnce = (failOnRefusal = false) => {
    loop ??= connect(failOnRefusal).finally(() => {
      loop = undefined;
    });
    return loop;
  };
  // A dropped socket (network, Slack recycling its servers, a missed pong) is reconnected
  // by the same loop, with the same pauses.
  slack.socketClient?.on('disconnected', () => {
    if (signal.aborted || loop) return;
    log.warn('the Socket Mode connection dropped: reconnecting');
    void clock
      .sleep(retry.first, signal)
      .then(() => connectOnce())
      .catch((err: unknown) => {
        if (!signal.aborted) log.error({ err }, `reconnecting to Slack failed: ${reasonOf(err)}`);
      });
  });
  return { connectOnce };
}

/**
 * Waits for `connecting` at most `waitMs`; says so when Slack has not answered by then
 * (the caller goes on while it keeps connecting). Rejects when `connecting` does in time.
 */
export async function awaitSlack(connecting: Promise<void>, waitMs: number, log: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      connecting.then(() => 'connected' as const),
      new Promise<'waiting'>((resolve) => {
        timer = setTimeout(() => resolve('waiting'), waitMs);
      }),
    ]);
    if (outcome === 'waiting') {
      log.warn('Slack has not answered yet: starting the scheduler, still connecting in the background');
    }
  } finally {
    clearTimeout(timer);
  }
}
