/**
 * Reading a response body on the wire: a body that arrives in many pieces is read whole,
 * and whatever goes wrong once the headers are in (a cancel, a stall, a reset, a short
 * body) is the same coded error as before the headers, with the same retries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortedError, NetworkError, TimeoutError } from '../../src/api/errors.js';
import { type ApiHarness, apiFailure as failure, startApiHarness } from '../helpers/api-client-harness.js';
import * as fx from '../helpers/api-payloads.js';
import { sendJson, type TestHandler } from '../helpers/http-test-server.js';

const B = fx.BRAND_ID;

/** Answers request n (0-based) with `steps[n]`, the last step repeating. */
function script(...steps: TestHandler[]): TestHandler {
  let n = 0;
  return (req, res, raw) => steps[Math.min(n++, steps.length - 1)]!(req, res, raw);
}
const ok: TestHandler = (_req, res) => sendJson(res, 200, fx.brands);

/** The headers and the first part of a body; what happens next is up to `then`. */
function halfBody(then: (res: ServerResponse, raw: IncomingMessage) => void): TestHandler {
  return (_req, res, raw) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"brands": [', () => then(res, raw));
  };
}
const resetMidBody = halfBody((_res, raw) => raw.socket.destroy());

/** A feed of `n` events whose text has multi-byte characters, so chunk edges split some. */
function bigFeed(n: number) {
  const event = fx.citationFeed.events[0]!;
  const events = Array.from({ length: n }, (_, i) => ({
    ...event,
    url: `https://blog.example.com/ü/${i}`,
    h1: `Léa’s ${i} 🏃 guide`,
  }));
  return { ...fx.citationFeed, events };
}

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

let h: ApiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a body in many pieces', () => {
  it('is read whole, multi-byte characters split across pieces included, on one connection', async () => {
    const feed = bigFeed(500);
    const bytes = Buffer.from(JSON.stringify(feed), 'utf8');
    h = await startApiHarness(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // 1,001-byte pieces, each written on its own turn, so the client sees many chunks.
      for (let at = 0; at < bytes.length; at += 1_001) {
        await new Promise<void>((resolve) => res.write(bytes.subarray(at, at + 1_001), () => resolve()));
      }
      res.end();
    });
    for (let i = 0; i < 4; i++) {
      await expect(h.client.getCitationFeed({ brandId: B, limit: 500 })).resolves.toEqual(feed);
    }
    // Read to the end, each response frees its connection for the next request (undici may
    // open a second socket while the first is being released, as client-requests.test.ts says).
    const ports = h.server.requests.map((r) => r.remotePort);
    expect(ports).toHaveLength(4);
    expect(new Set(ports).size).toBeLessThanOrEqual(2);
  });

  it('drops a UTF-8 byte order mark before the JSON', async () => {
    h = await startApiHarness((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(fx.brands))]));
    });
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
  });

  it('skips an informational answer and reads the final one', async () => {
    h = await startApiHarness((_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      sendJson(res, 200, fx.brands);
    });
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
  });
});

describe('failures once the headers are in', () => {
  it('a cancel mid-body gives AbortedError, closes the connection and is not retried', async () => {
    let closed: Promise<void> | undefined;
    const bodyStarted = signal();
    h = await startApiHarness(
      halfBody((_res, raw) => {
        closed = new Promise((resolve) => raw.socket.once('close', () => resolve()));
        bodyStarted.resolve();
      }),
      // Long enough that only the cancel can be what closes the connection.
      { timeouts: { bodyMs: 60_000 } },
    );
    const controller = new AbortController();
    const pending = h.client.getBrands({}, { signal: controller.signal });
    await bodyStarted.promise;
    controller.abort();
    const err = await failure(pending);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.message).toBe('The request to GET /get-brands was cancelled.');
    // The half-read response is not left holding the socket: the client closes it.
    await closed;
    expect(h.server.requests).toHaveLength(1);
    expect(h.responses).toEqual([]);
    expect(h.limiter.observed.map((o) => o.observation)).toEqual([{ status: 0 }]);
  });

  it('a cancel while waiting for a free connection sends nothing more', async () => {
    const bodyStarted = signal();
    // One connection, held by a first request whose body never ends.
    const agent = new Agent({ connections: 1 });
    h = await startApiHarness(
      halfBody(() => bodyStarted.resolve()),
      {
        dispatcher: agent,
        timeouts: { bodyMs: 60_000 },
        retry: { maxRetries: 0 },
      },
    );
    try {
      const first = h.client.getBrands();
      await bodyStarted.promise;
      const controller = new AbortController();
      const second = h.client.getBrands({}, { signal: controller.signal });
      await vi.waitFor(() => expect(h!.limiter.acquired).toHaveLength(2), { timeout: 10_000, interval: 5 });
      controller.abort();
      // Settled at once, not when the connection frees up (never, here).
      expect(await failure(second)).toBeInstanceOf(AbortedError);
      await h.server.close();
      expect(await failure(first)).toBeInstanceOf(NetworkError);
      expect(h.server.requests).toHaveLength(1);
    } finally {
      await agent.close();
    }
  });

  it('a body that stalls ends in TimeoutError saying it was reading the response', async () => {
    h = await startApiHarness(
      halfBody(() => {}),
      { timeouts: { bodyMs: 100 }, retry: { maxRetries: 0 } },
    );
    const err = await failure(h.client.getCitationFeed({ brandId: B }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe(
      'The Brand Visibility API timed out while reading the response (GET /get-citations).',
    );
    expect(h.responses.map((r) => r.status)).toEqual(['timeout']);
  });

  it('a reset mid-body is a network error: a GET is retried', async () => {
    h = await startApiHarness(script(resetMidBody, ok));
    await expect(h.client.getBrands()).resolves.toEqual(fx.brands);
    expect(h.server.requests).toHaveLength(2);
    expect(h.responses.map((r) => r.status)).toEqual(['network_error', 200]);
    expect(h.sleeps).toEqual([125]);
  });

  it('a reset mid-body is a network error: a POST is not retried', async () => {
    h = await startApiHarness(script(resetMidBody, ok));
    const err = await failure(h.client.addMarket({ brandId: B, location: 'GB' }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/^Could not reach the Brand Visibility API \(POST \/get-brands\/markets\): /);
    expect(h.server.requests).toHaveLength(1);
  });

  it('a body shorter than its content-length is a network error, never a truncated value', async () => {
    h = await startApiHarness(
      (_req, res, raw) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"brands": []}', () => raw.socket.end());
      },
      { retry: { maxRetries: 0 } },
    );
    expect(await failure(h.client.getBrands())).toBeInstanceOf(NetworkError);
  });
});
