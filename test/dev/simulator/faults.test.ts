/**
 * Injected faults, one kind at a time, including how many requests they hit and which paths.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;

describe('faults', () => {
  it('status: answers the status for `count` requests on the path, then recovers', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'status', status: 503, count: 2, path: '/get-citations' });
    expect((await get(s, '/get-brands')).status).toBe(200);
    const first = await get(s, '/get-citations', { brand_id: acme });
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ error: expect.any(String), errors: [] });
    expect((await get(s, '/get-citations', { brand_id: acme })).status).toBe(503);
    expect((await get(s, '/get-citations', { brand_id: acme })).status).toBe(200);
    expect(s.requests.map((r) => r.status)).toEqual([200, 503, 503, 200]);
  });

  it('status: a custom body, and a path covering the paths below it', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'status', status: 500, path: '/crawler', body: { detail: 'boom' } });
    const res = await get(s, '/crawler/live', { brand_id: acme });
    expect(res).toMatchObject({ status: 500, body: { detail: 'boom' } });
    expect((await get(s, '/crawler/live', { brand_id: acme })).status).toBe(200);
  });

  it('latency: delays the answer by ms on the simulator clock, once by default', async () => {
    const s = await sim({ clock: systemClock });
    s.control.injectFault({ kind: 'latency', ms: 120 });
    const started = Date.now();
    const res = await get(s, '/get-brands');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    // Used up: nothing is armed any more.
    expect((await call(s, 'GET', '/__control/state', { auth: false })).body.faults).toEqual([]);
  });

  it('latency on a manual clock advances that clock instead of sleeping', async () => {
    const s = await sim();
    const before = s.clock.now();
    s.control.injectFault({ kind: 'latency', ms: 30_000, count: 1 });
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect(s.clock.now() - before).toBe(30_000);
  });

  it('malformed-json: a 200 whose JSON body is cut short', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'malformed-json', path: '/get-brands' });
    const res = await get(s, '/get-brands');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.text.startsWith('{"brands":[')).toBe(true);
    expect(JSON.parse((await get(s, '/get-brands')).text)).toHaveProperty('brands');
  });

  it('rate-limit: 429 with Retry-After, a custom message, or no Retry-After at all', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'rate-limit', retryAfterSec: 30 });
    const a = await get(s, '/get-brands');
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('30');
    expect(a.body).toEqual({ error: 'Rate limit exceeded: 60 per 1 minute' });

    s.control.injectFault({
      kind: 'rate-limit',
      retryAfterSec: null,
      message: 'Too many requests, retry in 45 seconds',
    });
    const b = await get(s, '/get-brands');
    expect(b.status).toBe(429);
    expect(b.headers.get('retry-after')).toBeNull();
    expect(b.body).toEqual({ error: 'Too many requests, retry in 45 seconds' });

    expect((await get(s, '/get-brands')).status).toBe(200);
  });

  it('no-rate-limit-headers: no X-RateLimit-* or Retry-After until cleared', async () => {
    const s = await sim({ limits: { burst: 1 } });
    s.control.injectFault({ kind: 'no-rate-limit-headers' });
    const ok = await get(s, '/get-brands');
    expect(ok.status).toBe(200);
    const limited = await get(s, '/get-brands');
    expect(limited.status).toBe(429);
    for (const res of [ok, limited]) {
      expect(
        [...res.headers.keys()].filter((h) => h.startsWith('x-ratelimit') || h === 'retry-after'),
      ).toEqual([]);
    }
    s.control.clearFaults();
    expect((await get(s, '/get-brands')).headers.get('retry-after')).toBe('1');
  });

  it('reset-connection: the socket is dropped without an answer, recorded with status 0', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'reset-connection', path: '/get-content-ideas' });
    await expect(
      fetch(`${s.url}/get-content-ideas?brand_id=${acme}`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      }),
    ).rejects.toThrow();
    expect(s.requests.at(-1)).toMatchObject({ path: '/get-content-ideas', status: 0 });
    expect((await get(s, '/get-content-ideas', { brand_id: acme })).status).toBe(200);
  });

  it('clearFaults disarms everything; invalid faults are refused', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'status', status: 500, count: 5 });
    s.control.clearFaults();
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect(() => s.control.injectFault({ kind: 'status', status: 42 })).toThrow(/invalid fault/);
    expect(() => s.control.injectFault({ kind: 'explode' } as never)).toThrow(/invalid fault/);
  });

  it('faults never touch the control endpoint', async () => {
    const s = await sim();
    s.control.injectFault({ kind: 'status', status: 500, count: 3 });
    expect((await call(s, 'GET', '/__control/state', { auth: false })).status).toBe(200);
    expect((await get(s, '/get-brands')).status).toBe(500);
  });
});
