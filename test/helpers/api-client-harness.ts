/**
 * A real ApiClient wired to a local test server, a recording limiter, a captured debug
 * log (plain pino, no secret scrubbing, so a leak by the client would show) and a clock
 * whose sleeps are recorded and skipped.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { ApiClient, type ApiClientOptions } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { Clock } from '../../src/clock.js';
import { API_KEY } from './api-payloads.js';
import { startTestServer, type TestHandler, type TestServer } from './http-test-server.js';
import { type RecordingLimiter, recordingLimiter } from './recording-limiter.js';

export interface ApiHarness {
  server: TestServer;
  client: ApiClient;
  limiter: RecordingLimiter;
  /** Every log line the client wrote, raw. */
  logs: string[];
  /** Every backoff sleep the client asked for, in ms. */
  sleeps: number[];
  responses: Parameters<NonNullable<ApiClientOptions['onResponse']>>[0][];
  close(): Promise<void>;
}

export async function startApiHarness(
  handler: TestHandler,
  options: Partial<ApiClientOptions> = {},
): Promise<ApiHarness> {
  const server = await startTestServer(handler);
  const limiter = recordingLimiter();
  const logs: string[] = [];
  const sleeps: number[] = [];
  const responses: ApiHarness['responses'] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        logs.push(chunk.toString('utf8'));
        cb();
      },
    }),
  );
  const clock: Clock = {
    now: () => Date.now(),
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
    },
  };
  const client = new ApiClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    limiter,
    logger,
    clock,
    random: () => 0.5,
    timeouts: { connectMs: 500, headersMs: 1_000, bodyMs: 1_000 },
    onResponse: (e) => responses.push(e),
    ...options,
  });
  return {
    server,
    client,
    limiter,
    logs,
    sleeps,
    responses,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The ApiError `p` rejects with (a test fails if it resolves or rejects with anything else). */
export async function apiFailure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}
