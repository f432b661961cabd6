/**
 * Just enough of Slack's Socket Mode for an e2e test: `apps.connections.open` hands out a
 * WebSocket URL on this server, which says `hello`; every other Web API method is
 * forwarded to the local Slack. Requests the local Slack's driver "sends to the app" at
 * /relay (slash commands, interactions, events) travel over a socket instead, as envelopes,
 * the way Socket Mode carries them. RFC 6455 framing, text/ping/close only.
 *
 * Several connections, as an app with several replicas opens (Slack allows up to 10 per
 * app): each envelope goes to ONE of them, in turn, and an envelope nobody acknowledges
 * within `ackTimeoutMs` is sent again on another connection with `retry_attempt` and
 * `retry_reason: timeout`, at most 3 times, as Slack redelivers. The relay answers the
 * driver once the envelope is acknowledged, with the ack's payload as the HTTP body (a
 * modal's response_action reaches the local Slack as it would over HTTP), or 504 when no
 * attempt was acknowledged.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type AppDeps, createAppDeps } from '../../src/app-deps.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import type { LocalSlack } from '../../src/dev/local-slack/index.js';
import type { RunningSimulator } from '../../src/dev/simulator/index.js';
import { schedulerExtension } from '../../src/jobs/scheduler-extension.js';
import {
  type RunningService,
  type StartServiceOptions,
  startService,
} from '../../src/slack/create-slack-app.js';
import { captureLogger, startBackends } from './service-harness.js';

/** One envelope sent on one connection (an attempt: the first, or a redelivery). */
export interface EnvelopeDelivery {
  envelopeId: string;
  /** Which connection, numbered from 0 in the order they opened. */
  connection: number;
  /** 0 for the first attempt. */
  retryAttempt: number;
  type: string;
}

export interface EnvelopeAck {
  envelopeId: string;
  connection: number;
  payload: unknown;
}

export interface FakeSocketModeOptions {
  /** How long an envelope may stay unacknowledged before it is sent again; Slack's is a few seconds. */
  ackTimeoutMs?: number;
}

export interface FakeSocketMode {
  /** SLACK_API_URL for the app */
  apiUrl: string;
  /** Pass to LocalSlack.slashCommand (blockAction, viewSubmission, event) as the app URL: it arrives over a socket. */
  relayUrl: string;
  /** JSON messages the app sent over the sockets (acks), lost ones included. */
  received: Array<Record<string, unknown>>;
  /** Every envelope sent, each attempt, oldest first. */
  deliveries: EnvelopeDelivery[];
  /** Acks that reached Slack (not lost), oldest first. */
  acks: EnvelopeAck[];
  /** The app-level token seen on apps.connections.open. */
  appTokens: string[];
  /** false: every Web API call answers 503, as when Slack is down or unreachable. */
  reachable: boolean;
  /**
   * Acks sent on `connection` from now on never reach Slack (`false` lifts it): what Slack
   * sees when a replica is too slow or its ack is lost on the way; the envelope is redelivered.
   */
  loseAcks(connection: number, lost?: boolean): void;
  /** The next envelopes go to `connection` while it is open (undefined: in turn again). */
  deliverTo(connection: number | undefined): void;
  /** Cuts every open WebSocket, as a network drop would (no close frame). */
  dropConnections(): void;
  /** WebSockets currently open. */
  readonly openSockets: number;
  close(): Promise<void>;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_RETRIES = 3;

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65_536
        ? Buffer.from([0x80 | opcode, 126, (len >> 8) & 0xff, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(len)]);
  return Buffer.concat([head, payload]);
}

function bigLength(len: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(len));
  return b;
}
/** Reads client frames (always masked) from `buf`; returns what is left unparsed. */
function readFrames(buf: Buffer, onFrame: (opcode: number, payload: Buffer) => void): Buffer {
  let rest = buf;
  for (;;) {
    if (rest.length < 2) return rest;
    const opcode = rest[0]! & 0x0f;
    let len = rest[1]! & 0x7f;
    let offset = 2;
    if (len === 126) {
      if (rest.length < 4) return rest;
      len = rest.readUInt16BE(2);
      offset = 4;
    } else if (len === 127) {
      if (rest.length < 10) return rest;
      len = Number(rest.readBigUInt64BE(2));
      offset = 10;
    }
    if (rest.length < offset + 4 + len) return rest;
    const mask = rest.subarray(offset, offset + 4);
    const payload = Buffer.from(rest.subarray(offset + 4, offset + 4 + len));
    for (let i = 0; i < payload.length; i += 1) payload[i] = payload[i]! ^ mask[i % 4]!;
    onFrame(opcode, payload);
    rest = rest.subarray(offset + 4 + len);
  }
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface Connection {
  n: number;
  socket: Socket;
  open: boolean;
  losesAcks: boolean;
}

interface Envelope {
  id: string;
  type: string;
  payload: unknown;
  acceptsResponsePayload: boolean;
  /** The attempt Slack starts from: a relayed HTTP redelivery already carries one. */
  firstAttempt: number;
  retryReason: string | undefined;
  attempts: number;
  lastConnection: number | undefined;
  timer: NodeJS.Timeout | undefined;
  done: (ack: EnvelopeAck | undefined) => void;
}

/** What the driver posted, as Socket Mode would carry it. */
function envelopeOf(text: string, contentType: string): { type: string; payload: unknown } {
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = Object.fromEntries(new URLSearchParams(text));
    if (typeof form['payload'] === 'string') {
      try {
        return { type: 'interactive', payload: JSON.parse(form['payload']) };
      } catch {
        return { type: 'interactive', payload: form['payload'] };
      }
    }
    return { type: 'slash_commands', payload: form };
  }
  try {
    return { type: 'events_api', payload: JSON.parse(text) };
  } catch {
    return { type: 'events_api', payload: text };
  }
}

export async function startFakeSocketMode(
  localSlackApiUrl: string,
  options: FakeSocketModeOptions = {},
): Promise<FakeSocketMode> {
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const received: Array<Record<string, unknown>> = [];
  const deliveries: EnvelopeDelivery[] = [];
  const acks: EnvelopeAck[] = [];
  const appTokens: string[] = [];
  const connections: Connection[] = [];
  const envelopes = new Map<string, Envelope>();
  /** Envelopes waiting for a connection to open. */
  const waiting: Envelope[] = [];
  let envelopeCount = 0;
  let turn = 0;
  let target: number | undefined;
  let origin = '';

  const openConnections = () => connections.filter((c) => c.open && !c.socket.destroyed);

  /** The connection for the next attempt: the chosen one, else the next in turn, another than the last if there is one. */
  const pick = (avoid: number | undefined): Connection | undefined => {
    const open = openConnections();
    const chosen = target === undefined ? undefined : open.find((c) => c.n === target);
    if (chosen && avoid === undefined) return chosen;
    const others = open.filter((c) => c.n !== avoid);
    const pool = others.length > 0 ? others : open;
    if (pool.length === 0) return undefined;
    turn += 1;
    return pool[turn % pool.length];
  };

  const send = (env: Envelope) => {
    const conn = pick(env.lastConnection);
    if (!conn) {
      waiting.push(env);
      return;
    }
    const retryAttempt = env.firstAttempt + env.attempts;
    env.attempts += 1;
    env.lastConnection = conn.n;
    deliveries.push({ envelopeId: env.id, connection: conn.n, retryAttempt, type: env.type });
    const message = {
      envelope_id: env.id,
      type: env.type,
      accepts_response_payload: env.acceptsResponsePayload,
      payload: env.payload,
      ...(retryAttempt > 0
        ? { retry_attempt: retryAttempt, retry_reason: env.retryReason ?? 'timeout' }
        : {}),
    };
    conn.socket.write(frame(0x1, Buffer.from(JSON.stringify(message))));
    clearTimeout(env.timer);
    env.timer = setTimeout(() => {
      if (!envelopes.has(env.id)) return;
      if (env.attempts > MAX_RETRIES) {
        envelopes.delete(env.id);
        env.done(undefined);
        return;
      }
      // Slack's own redeliveries say why.
      env.retryReason = 'timeout';
      send(env);
    }, ackTimeoutMs);
  };

  const onAck = (conn: Connection, message: Record<string, unknown>) => {
    const id = message['envelope_id'];
    if (typeof id !== 'string' || conn.losesAcks) return;
    const env = envelopes.get(id);
    const ack: EnvelopeAck = { envelopeId: id, connection: conn.n, payload: message['payload'] };
    acks.push(ack);
    if (!env) return;
    clearTimeout(env.timer);
    envelopes.delete(id);
    env.done(ack);
  };

  const state = { reachable: true };
  const server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      const url = new URL(req.url ?? '/', 'http://x');
      if (!state.reachable && url.pathname.startsWith('/api/')) {
        res.writeHead(503);
        res.end();
      } else if (url.pathname === '/api/apps.connections.open') {
        appTokens.push(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, url: `${origin.replace('http', 'ws')}/link` }));
      } else if (url.pathname.startsWith('/api/')) {
        const upstream = await fetch(`${localSlackApiUrl}${url.pathname.slice('/api/'.length)}`, {
          method: 'POST',
          headers: {
            'content-type': String(req.headers['content-type'] ?? 'application/x-www-form-urlencoded'),
            ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
          },
          body: text,
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
      } else if (url.pathname === '/relay') {
        envelopeCount += 1;
        const { type, payload } = envelopeOf(text, String(req.headers['content-type'] ?? ''));
        // The local Slack redelivers over HTTP with X-Slack-Retry-Num/-Reason; in Socket
        // Mode the same redelivery is a new envelope carrying retry_attempt/retry_reason.
        const retry = req.headers['x-slack-retry-num'];
        const acked = await new Promise<EnvelopeAck | undefined>((done) => {
          const env: Envelope = {
            id: `env-${envelopeCount}`,
            type,
            payload,
            acceptsResponsePayload: type !== 'events_api',
            firstAttempt: typeof retry === 'string' ? Number(retry) : 0,
            retryReason: typeof retry === 'string' ? String(req.headers['x-slack-retry-reason']) : undefined,
            attempts: 0,
            lastConnection: undefined,
            timer: undefined,
            done,
          };
          envelopes.set(env.id, env);
          send(env);
        });
        if (!acked) {
          res.writeHead(504);
          res.end();
          return;
        }
        const ackPayload = acked.payload;
        const hasPayload =
          typeof ackPayload === 'object' && ackPayload !== null && Object.keys(ackPayload).length > 0;
        res.writeHead(200, hasPayload ? { 'content-type': 'application/json' } : {});
        res.end(hasPayload ? JSON.stringify(ackPayload) : '');
      } else {
        res.writeHead(404);
        res.end();
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const conn: Connection = { n: connections.length, socket, open: true, losesAcks: false };
    connections.push(conn);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = readFrames(Buffer.concat([pending, chunk]), (opcode, payload) => {
        if (opcode === 0x1) {
          const message = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
          received.push(message);
          onAck(conn, message);
        } else if (opcode === 0x9) socket.write(frame(0xa, payload));
        else if (opcode === 0x8) socket.end(frame(0x8, Buffer.alloc(0)));
      });
    });
    const closed = () => {
      conn.open = false;
    };
    socket.on('close', closed);
    socket.on('error', closed);
    socket.write(
      frame(
        0x1,
        Buffer.from(
          JSON.stringify({
            type: 'hello',
            num_connections: openConnections().length,
            connection_info: { app_id: 'A0LOCALAPP' },
          }),
        ),
      ),
    );
    for (const env of waiting.splice(0)) send(env);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/api/`,
    relayUrl: `${origin}/relay`,
    received,
    deliveries,
    acks,
    appTokens,
    get reachable() {
      return state.reachable;
    },
    set reachable(value: boolean) {
      state.reachable = value;
    },
    loseAcks(connection, lost = true) {
      const conn = connections[connection];
      if (!conn) throw new Error(`fake Socket Mode: no connection ${connection}`);
      conn.losesAcks = lost;
    },
    deliverTo(connection) {
      target = connection;
    },
    dropConnections() {
      for (const c of openConnections()) c.socket.destroy();
    },
    get openSockets() {
      return openConnections().length;
    },
    async close() {
      for (const env of envelopes.values()) {
        clearTimeout(env.timer);
        env.done(undefined);
      }
      envelopes.clear();
      for (const env of waiting.splice(0)) env.done(undefined);
      for (const c of connections) c.socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface FakeSlackService {
  sim: RunningSimulator;
  slack: LocalSlack;
  fake: FakeSocketMode;
  deps: AppDeps;
  service: RunningService;
  close(): Promise<void>;
}

/**
 * The real service with Slack behind the fake: Socket Mode when `appToken` is given,
 * otherwise HTTP mode with the Web API going through the fake (so a test can make Slack
 * unreachable). `env` adds or overrides variables; `reachable: false` starts with Slack down.
 */
export async function startFakeSlackService(options: {
  appToken?: string;
  env?: Record<string, string>;
  clock?: Clock;
  lines?: string[];
  reachable?: boolean;
  withScheduler?: boolean;
  start?: Omit<StartServiceOptions, 'port'>;
}): Promise<FakeSlackService> {
  const { sim, slack, dir, env } = await startBackends();
  const fake = await startFakeSocketMode(slack.url);
  fake.reachable = options.reachable ?? true;
  const { SLACK_SIGNING_SECRET, ...common } = env;
  const config = loadConfig('serve', {
    ...common,
    ...(options.appToken
      ? { SLACK_APP_TOKEN: options.appToken }
      : { SLACK_SIGNING_SECRET: SLACK_SIGNING_SECRET! }),
    SLACK_API_URL: fake.apiUrl,
    ...options.env,
  });
  const deps = createAppDeps(config, {
    logger: captureLogger(config, options.lines ?? []),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const service = await startService(deps, { port: 0, drainTimeoutMs: 2000, ...options.start });
  if (options.withScheduler) schedulerExtension({ catchUpOnStart: false })(deps, service.lifecycle);
  return {
    sim,
    slack,
    fake,
    deps,
    service,
    async close() {
      await service.stop();
      await deps.close();
      await fake.close();
      await slack.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
