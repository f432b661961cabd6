/**
 * Whether the service can hear Slack, for /healthz: in HTTP mode that is "auth.test has
 * answered" (Bolt cannot route a request before), in Socket Mode "the WebSocket is open
 * and Slack said hello". The Socket Mode client reports its state as events (see
 * @slack/socket-mode SocketModeClient: connecting, authenticated, connected, reconnecting,
 * disconnected, and `close` when the socket drops while it will reconnect by itself);
 * `watchSocketModeClient` turns them into this state. Times come from the injected clock,
 * so tests move past the grace period without waiting for it.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';

type SlackLinkState = 'starting' | 'connecting' | 'connected' | 'disconnected' | 'stopped';

export interface SlackConnectionSnapshot {
  mode: 'http' | 'socket';
  /** true once Slack can reach the app (HTTP: auth.test passed; Socket Mode: hello received). */
  connected: boolean;
  state: SlackLinkState;
  /** ISO time of the last change between connected and not connected. */
  since: string;
  /** Attempts to (re)connect since the link was last up (apps.connections.open, auth.test). */
  reconnectAttempts: number;
  /** Times the link came up after being down (0 on the first connection). */
  reconnects: number;
  lastError: string | null;
}

export interface SlackConnection {
  readonly mode: 'http' | 'socket';
  attempt(): void;
  up(): void;
  down(state: 'connecting' | 'disconnected', error?: string): void;
  stopped(): void;
  /** How long the link has not been up (0 while connected or stopped). */
  downForMs(): number;
  snapshot(): SlackConnectionSnapshot;
}

/** `logger` says when Slack can reach the app, the first time and after each outage. */
export function createSlackConnection(
  mode: 'http' | 'socket',
  clock: Clock,
  logger?: Pick<Logger, 'info'>,
): SlackConnection {
  let state: SlackLinkState = 'starting';
  let since = clock.now();
  let attempts = 0;
  let reconnects = 0;
  let everUp = false;
  let lastError: string | null = null;
  const isUp = () => state === 'connected';

  return {
    mode,
    attempt() {
      attempts += 1;
      if (state === 'starting') state = 'connecting';
    },
    up() {
      if (isUp()) return;
      if (everUp) reconnects += 1;
      logger?.info({ mode, reconnects }, everUp ? 'Slack is reachable again' : 'Slack is reachable');
      everUp = true;
      state = 'connected';
      since = clock.now();
      attempts = 0;
      lastError = null;
    },
    down(next, error) {
      if (state === 'stopped') return;
      if (isUp()) since = clock.now();
      state = next;
      if (error) lastError = error;
    },
    stopped() {
      state = 'stopped';
      since = clock.now();
    },
    downForMs: () => (isUp() || state === 'stopped' ? 0 : Math.max(0, clock.now() - since)),
    snapshot: () => ({
      mode,
      connected: isUp(),
      state,
      since: new Date(since).toISOString(),
      reconnectAttempts: attempts,
      reconnects,
      lastError,
    }),
  };
}

/** The Socket Mode client's events (its `State` enum values, plus the socket's `close`). */
/** The client is an eventemitter3 emitter; `on` is all this needs. */
export interface EventSource {
  on(event: string, listener: () => void): unknown;
}

export function watchSocketModeClient(client: EventSource, connection: SlackConnection): void {
  client.on('connecting', () => connection.down('connecting'));
  client.on('reconnecting', () => connection.down('connecting'));
  client.on('connected', () => connection.up());
  // `close` is the socket dropping; the client reconnects after a delay by itself.
  client.on('close', () => connection.down('disconnected', 'the Socket Mode connection closed'));
  client.on('disconnected', () => connection.down('disconnected'));
}
