/**
 * Shared setup for the local Slack tests: a started local Slack, a real WebClient pointed at
 * it with retries off (the default policy can stall for 30 minutes), and a manual clock.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, LogLevel, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../src/dev/local-slack/index.js';
import { type ManualClock, manualClock } from '../../helpers/manual-clock.js';

/** WebClient prints platform warnings to the console; tests assert on them instead. */
export const quietLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

export interface Fixture {
  slack: LocalSlack;
  client: WebClient;
  clock: ManualClock;
}

export async function startFixture(): Promise<Fixture> {
  const clock = manualClock(Date.UTC(2025, 0, 15, 9, 0, 0));
  const slack = await startLocalSlack({ clock });
  const client = new WebClient(slack.botToken, {
    slackApiUrl: slack.url,
    retryConfig: { retries: 0 },
    logger: quietLogger,
  });
  return { slack, client, clock };
}

/**
 * The fixture for every test of a file: started before all, closed after all, the local
 * Slack reset before each test. The object is filled in by beforeAll.
 */
export function useFixture(): Fixture {
  const f = {} as Fixture;
  beforeAll(async () => {
    Object.assign(f, await startFixture());
  });
  afterAll(async () => {
    await f.slack?.close();
  });
  beforeEach(() => f.slack.reset());
  return f;
}

/** The platform error a WebClient call failed with (`data.error`), or 'ok'. */
export async function platformError(
  call: Promise<unknown>,
): Promise<{ error: string; data: Record<string, unknown> }> {
  try {
    await call;
    return { error: 'ok', data: {} };
  } catch (e) {
    const data = (e as { data?: Record<string, unknown> }).data ?? {};
    return { error: String(data['error'] ?? (e as Error).message), data };
  }
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface AckServer {
  url: string;
  requests: ReceivedRequest[];
  /** What the next requests are answered with (default 200, empty body). */
  answer: { status: number; body: string; contentType: string };
  close(): Promise<void>;
}

/** A bare HTTP "app" that records what the driver sent and acks at once. */
export async function startAckServer(): Promise<AckServer> {
  const requests: ReceivedRequest[] = [];
  const answer = { status: 200, body: '', contentType: 'application/json' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { 'content-type': answer.contentType });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    requests,
    answer,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An ack server for every test of a file: started before all, closed after all, its
 * recorded requests dropped and its answer emptied before each test. The object is filled
 * in by beforeAll.
 */
export function useAckServer(): AckServer {
  const app = {} as AckServer;
  beforeAll(async () => {
    Object.assign(app, await startAckServer());
  });
  afterAll(async () => {
    await app.close?.();
  });
  beforeEach(() => {
    app.requests.length = 0;
    app.answer.body = '';
  });
  return app;
}
