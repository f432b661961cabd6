/**
 * Just enough of Slack's Socket Mode for an e2e test: `apps.connections.open` hands out a
 * WebSocket URL on this server, which says `hello` and relays slash commands as envelopes;
 * every other Web API method is forwarded to the local Slack. Requests the local Slack's
 * driver "sends to the app" at /relay travel over the socket instead, as they do in
 * Socket Mode. RFC 6455 framing, text/ping/close only.
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

export interface FakeSocketMode {
  /** SLACK_API_URL for the app */
  apiUrl: string;
  /** Pass to LocalSlack.slashCommand as the app URL: the command arrives over the socket. */
  relayUrl: string;
  /** JSON messages the app sent over the socket (acks). */
  received: Array<Record<string, unknown>>;
  /** The app-level token seen on apps.connections.open. */
  appTokens: string[];
  /** false: every Web API call answers 503, as when Slack is down or unreachable. */
  reachable: boolean;
  /** Cuts every open WebSocket, as a network drop would (no close frame). */
  dropConnections(): void;
  /** WebSockets currently open. */
  readonly openSockets: number;
  close(): Promise<void>;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : Buffer.from([0x80 | opcode, 126, (len >> 8) & 0xff, len & 0xff]);
  return Buffer.concat([head, payload]);
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

export async function startFakeSocketMode(localSlackApiUrl: string): Promise<FakeSocketMode> {
  const received: Array<Record<string, unknown>> = [];
  const appTokens: string[] = [];
  const sockets = new Set<Socket>();
  let envelopes = 0;
  let origin = '';

  const sendText = (data: unknown) => {
    for (const s of sockets) s.write(frame(0x1, Buffer.from(JSON.stringify(data))));
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
        envelopes += 1;
        // Slack redelivers an envelope it thinks timed out with retry_attempt/retry_reason;
        // the relay maps the HTTP redelivery headers the local Slack sends onto them.
        const retry = req.headers['x-slack-retry-num'];
        sendText({
          envelope_id: `env-${envelopes}`,
          type: 'slash_commands',
          accepts_response_payload: true,
          payload: Object.fromEntries(new URLSearchParams(text)),
          ...(typeof retry === 'string'
            ? { retry_attempt: Number(retry), retry_reason: String(req.headers['x-slack-retry-reason']) }
            : {}),
        });
        res.writeHead(200);
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    sockets.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = readFrames(Buffer.concat([pending, chunk]), (opcode, payload) => {
        if (opcode === 0x1) received.push(JSON.parse(payload.toString('utf8')) as Record<string, unknown>);
        else if (opcode === 0x9) socket.write(frame(0xa, payload));
        else if (opcode === 0x8) socket.end(frame(0x8, Buffer.alloc(0)));
      });
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    socket.write(
      frame(
        0x1,
        Buffer.from(
          JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0LOCALAPP' } }),
        ),
      ),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/api/`,
    relayUrl: `${origin}/relay`,
    received,
    appTokens,
    get reachable() {
      return state.reachable;
    },
    set reachable(value: boolean) {
      state.reachable = value;
    },
    dropConnections() {
      for (const s of sockets) s.destroy();
    },
    get openSockets() {
      return sockets.size;
    },
    async close() {
      for (const s of sockets) s.destroy();
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
