/**
 * Transport behaviour on the wire: which failures are retried for which methods, the
 * backoff asked of the clock, timeouts, aborts, and what the limiter is told.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AbortedError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../../src/api/errors.js';
import { type ApiHarness, apiFailure as failure, startApiHarness } from '../helpers/api-client-harness.js';
import * as fx from '../helpers/api-payloads.js';
import { sendJson, type TestHandler } from '../helpers/http-test-server.js';

const B = fx.BRAND_ID;

/** Answers request n (0-based) with `steps[n]`, the last step repeating. */
function script(...steps: TestHandler[]): TestHandler {
  let n = 0;
  return (req, res, raw) => steps[Math.min(n++, steps.length - 1)]!(req, res, raw);
}
const ok =
  (body: unknown = fx.brands, headers: Record<string, string> = {}): TestHandler =>
  (_req, res) =>
    sendJson(res, 200, body, headers);
const status =
  (
    code: number,
    body: unknown = { error: `status ${code}` },
    headers: Record<string, string> = {},
  ): TestHandler =>
  (_req, res) =>
    sendJson(res, code, body, headers);
const reset: TestHandler = (_req, _res, raw) => raw.socket.destroy();
/** Never answers (the server's close() drops the socket). */
const hang: TestHandler = () => {};
const stallBody: TestHandler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"brands": [');
};

let h: ApiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// undici runs headers/body timeouts on its coarse "fast timers" (lib/util/timers.js,
// 1 s resolution), so a 100 ms timeout fires after up to ~1 s: the timeout tests take that long.
describe('GET retries network errors, timeouts and 5xx', () => {
  it('retries 500 then 503, then succeeds, with jittered exponential backoff', async () => {
    h = await startApiHarness(script(status(500), status(503), ok()));
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
    expect(h.server.requests).toHaveLength(3);
    // random() = 0.5, base 250: 0.5·250, 0.5·500
    expect(h.sleeps).toEqual([125, 250]);
    expect(h.limiter.acquired).toHaveLength(3);
    expect(h.limiter.observed.map((o) => o.observation.status)).toEqual([500, 503, 200]);
    expect(h.responses.map((r) => r.status)).toEqual([500, 503, 200]);
  });

  it('gives up after maxRetries with a ServerError', async () => {
    h = await startApiHarness(status(500, { detail: 'database unavailable' }));
    const err = await failure(h.client.getBrands());
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toContain('database unavailable');
    expect(h.server.requests).toHaveLength(4);
    expect(h.sleeps).toEqual([125, 250, 500]);
  });

  it('caps the backoff at maxDelayMs', async () => {
    h = await startApiHarness(status(503), {
      random: () => 1,
      retry: { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 3000 },
    });
    await failure(h.client.getBrands());
    expect(h.sleeps).toEqual([1000, 2000, 3000, 3000]);
  });

  it('retries a connection reset', async () => {
    h = await startApiHarness(script(reset, reset, ok()));
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
    expect(h.server.requests).toHaveLength(3);
    expect(h.responses.map((r) => r.status)).toEqual(['network_error', 'network_error', 200]);
  });

  it('retries a headers timeout', async () => {
    h = await startApiHarness(script(hang, ok()), { timeouts: { headersMs: 100 } });
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
    expect(h.server.requests).toHaveLength(2);
    expect(h.responses.map((r) => r.status)).toEqual(['timeout', 200]);
  });

  it('retries a body timeout', async () => {
    h = await startApiHarness(script(stallBody, ok()), { timeouts: { bodyMs: 100 } });
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
    expect(h.server.requests).toHaveLength(2);
    expect(h.responses.map((r) => r.status)).toEqual(['timeout', 200]);
  });

  it('a persistent timeout ends in TimeoutError naming the endpoint', async () => {
    h = await startApiHarness(hang, { timeouts: { headersMs: 80 }, retry: { maxRetries: 0 } });
    const err = await failure(h.client.getContentIdeas({ brandId: B }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe(
      'The Brand Visibility API timed out while waiting for the response (GET /get-content-ideas).',
    );
    expect(h.server.requests).toHaveLength(1);
  });

  it('an unreachable server ends in NetworkError after the retries', async () => {
    h = await startApiHarness(ok());
    const deadUrl = h.server.url;
    await h.server.close();
    const dead = await startApiHarness(ok(), { baseUrl: deadUrl, retry: { maxRetries: 2 } });
    try {
      const err = await failure(dead.client.getBrands());
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toMatch(
        /^Could not reach the Brand Visibility API \(GET \/get-brands\): .*ECONNREFUSED/,
      );
      expect(dead.limiter.acquired).toHaveLength(3);
      // Each attempt is reported to the limiter as "no response", so it waits on none.
      expect(dead.limiter.observed.map((o) => o.observation)).toEqual([
        { status: 0 },
        { status: 0 },
        { status: 0 },
      ]);
    } finally {
      await dead.close();
    }
  });
});

describe('POST, PUT and DELETE are never retried on network errors or 5xx', () => {
  it('POST 500 → one request, ServerError', async () => {
    h = await startApiHarness(script(status(500), ok({ status: 'generating' })));
    expect(await failure(h.client.refreshContentIdeas({ brandId: B }))).toBeInstanceOf(ServerError);
    expect(h.server.requests).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('POST connection reset → one request, NetworkError', async () => {
    h = await startApiHarness(script(reset, ok(fx.market)));
    expect(await failure(h.client.addMarket({ brandId: B, location: 'GB' }))).toBeInstanceOf(NetworkError);
    expect(h.server.requests).toHaveLength(1);
  });

  it('POST timeout → one request, TimeoutError', async () => {
    h = await startApiHarness(script(hang, ok({})), { timeouts: { headersMs: 80 } });
    expect(await failure(h.client.verificationPing({ brandId: B }))).toBeInstanceOf(TimeoutError);
    expect(h.server.requests).toHaveLength(1);
  });

  it('PUT 503 and DELETE 503 → one request each', async () => {
    h = await startApiHarness(status(503));
    expect(await failure(h.client.setAliases({ brandId: B, aliases: ['A'] }))).toBeInstanceOf(ServerError);
    expect(await failure(h.client.removeMarket({ brandId: B, marketId: fx.MARKET_ID }))).toBeInstanceOf(
      ServerError,
    );
    expect(h.server.requests.map((r) => r.method)).toEqual(['PUT', 'DELETE']);
  });
});

describe('429 is retried for every method; the limiter does the waiting', () => {
  const limited = status(429, { error: 'Rate limit exceeded: 10 per 1 minute' }, { 'retry-after': '7' });

  it('POST 429, 429, then 200', async () => {
    h = await startApiHarness(script(limited, limited, ok({ status: 'generating', message: 'started' })));
    await expect(h.client.refreshContentIdeas({ brandId: B })).resolves.toEqual({
      status: 'generating',
      message: 'started',
    });
    expect(h.server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(
      h.server.requests.every(
        (r) => JSON.stringify(r.json) === JSON.stringify({ brand_id: B, action: 'refresh' }),
      ),
    ).toBe(true);
    // No backoff sleep of its own: the limiter pauses on observe and waits in acquire.
    expect(h.sleeps).toEqual([]);
    expect(h.limiter.acquired.map((a) => a.endpoint)).toEqual([
      'refreshContentIdeas',
      'refreshContentIdeas',
      'refreshContentIdeas',
    ]);
    expect(h.limiter.observed.slice(0, 2).map((o) => o.observation)).toEqual([
      expect.objectContaining({
        status: 429,
        retryAfterMs: 7000,
        message: 'Rate limit exceeded: 10 per 1 minute',
      }),
      expect.objectContaining({ status: 429, retryAfterMs: 7000 }),
    ]);
  });

  it('after max429Retries a RateLimitedError is thrown', async () => {
    h = await startApiHarness(limited);
    const err = await failure(h.client.addMarket({ brandId: B, location: 'FR' }));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(7000);
    expect(h.server.requests).toHaveLength(5);
  });

  it('429 retries do not use up the 5xx retries', async () => {
    h = await startApiHarness(script(limited, status(500), limited, status(500), ok()), {
      retry: { maxRetries: 2, max429Retries: 2 },
    });
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
    expect(h.server.requests).toHaveLength(5);
    expect(h.sleeps).toHaveLength(2);
  });
});

describe('observe() receives the parsed rate-limit headers', () => {
  it('X-RateLimit-* and Retry-After in seconds', async () => {
    h = await startApiHarness(
      ok(fx.brands, {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '59',
        'x-ratelimit-reset': '1736700000',
      }),
    );
    await h.client.getBrands();
    expect(h.limiter.observed).toEqual([
      {
        endpoint: 'getBrands',
        observation: {
          status: 200,
          limit: 60,
          remaining: 59,
          resetAtMs: 1_736_700_000_000,
          retryAfterMs: undefined,
          message: undefined,
        },
      },
    ]);
  });

  it('Retry-After as an HTTP date', async () => {
    // The client reads the date against its clock: a fixed one, on a whole second (the
    // date's precision), makes the wait exact whatever time the test takes.
    const now = Date.parse('2026-11-28T10:00:00Z');
    const at = new Date(now + 90_000).toUTCString();
    h = await startApiHarness(status(429, { error: 'Rate limit exceeded' }, { 'retry-after': at }), {
      retry: { max429Retries: 0 },
      clock: { now: () => now, sleep: async () => {} },
    });
    await failure(h.client.getBrands());
    expect(h.limiter.observed[0]!.observation.retryAfterMs).toBe(90_000);
  });

  it('blank or garbage headers are ignored; no headers at all is fine', async () => {
    h = await startApiHarness(
      script(
        status(
          429,
          { error: 'Rate limit exceeded: 60 per 1 minute' },
          {
            'retry-after': 'soon',
            'x-ratelimit-limit': 'lots',
            'x-ratelimit-remaining': '',
          },
        ),
        ok(),
      ),
    );
    await h.client.getBrands();
    expect(h.limiter.observed.map((o) => o.observation)).toEqual([
      {
        status: 429,
        limit: undefined,
        remaining: undefined,
        resetAtMs: undefined,
        retryAfterMs: undefined,
        message: 'Rate limit exceeded: 60 per 1 minute',
      },
      {
        status: 200,
        limit: undefined,
        remaining: undefined,
        resetAtMs: undefined,
        retryAfterMs: undefined,
        message: undefined,
      },
    ]);
  });
});

describe('abort', () => {
  it('an already-aborted signal sends nothing', async () => {
    h = await startApiHarness(ok());
    const err = await failure(h.client.getBrands({}, { signal: AbortSignal.abort() }));
    expect(err).toBeInstanceOf(AbortedError);
    expect(h.server.requests).toHaveLength(0);
  });

  it('aborting mid-request gives AbortedError and no retry', async () => {
    h = await startApiHarness(hang);
    const controller = new AbortController();
    const pending = h.client.getBrands({}, { signal: controller.signal });
    // Abort once the request is at the server (not after a fixed delay a busy machine can outrun).
    const { requests } = h.server;
    await vi.waitFor(() => expect(requests).toHaveLength(1), { timeout: 10_000, interval: 5 });
    controller.abort();
    const err = await failure(pending);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toBe('The request to GET /get-brands was cancelled.');
    expect(h.server.requests).toHaveLength(1);
  });
});

describe('logging', () => {
  it('logs endpoint, status and duration at debug, never headers or the key', async () => {
    h = await startApiHarness(script(status(503), ok()));
    await h.client.getBrands();
    const lines = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const responses = lines.filter((l) => l['msg'] === 'api response');
    expect(responses).toHaveLength(2);
    expect(responses[1]).toMatchObject({
      level: 20,
      endpoint: 'GET /get-brands',
      status: 200,
      component: 'api',
    });
    expect(typeof responses[1]!['durationMs']).toBe('number');
    for (const line of h.logs) {
      expect(line).not.toContain(fx.API_KEY);
      expect(line.toLowerCase()).not.toContain('authorization');
    }
  });
});
