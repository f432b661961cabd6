/**
 * Rate limits (docs/api.md §8): the key's token bucket, per-endpoint windows (brand writes
 * shared), the daily count, the headers on every response and the 429s. Limits are
 * compressed and the clock is manual, so nothing sleeps.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim, T0 } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;

describe('headers', () => {
  it('every response carries X-RateLimit-Limit/Remaining/Reset', async () => {
    const s = await sim();
    const first = await get(s, '/get-brands');
    const second = await get(s, '/get-citations', { brand_id: acme, view: 'sources' });
    for (const res of [first, second]) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
      // Unix seconds, a window (60 s) ahead.
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((T0 + 60_000) / 1000));
    }
    expect(second.status).toBe(400);
    expect(first.headers.get('retry-after')).toBeNull();
    // Errors before auth carry them too, without counting.
    const unauthenticated = await call(s, 'GET', '/get-brands', { auth: false });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('x-ratelimit-remaining')).toBe(
      first.headers.get('x-ratelimit-remaining'),
    );
  });

  it('the limit is the endpoint’s and remaining counts down', async () => {
    const s = await sim();
    const write = () =>
      call(s, 'PUT', '/get-brands/aliases', { body: { brand_id: acme, aliases: ['Acme'] } });
    const a = await write();
    const b = await write();
    expect(a.headers.get('x-ratelimit-limit')).toBe('30');
    expect(Number(a.headers.get('x-ratelimit-remaining'))).toBe(29);
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(28);
    const refresh = await call(s, 'POST', '/get-content-ideas', {
      body: { brand_id: acme, action: 'refresh' },
    });
    expect(refresh.headers.get('x-ratelimit-limit')).toBe('10');
  });

  it('Reset belongs to the limit Remaining comes from', async () => {
    const s = await sim({ limits: { burst: 3, perMinute: 60, perDay: 10 } });
    const seconds = (ms: number) => String(Math.ceil(ms / 1000));
    // The bucket (2 left) is tighter than the window (59) and the day (9): its next token.
    const first = await get(s, '/get-brands');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(first.headers.get('x-ratelimit-reset')).toBe(seconds(T0 + 1_000));
    await get(s, '/get-brands');
    s.clock.advance(500);
    // Half a token refilled: still 0 whole tokens left, the next one half a second away,
    // not a minute away when the window's oldest request leaves it.
    const emptied = await get(s, '/get-brands');
    expect(emptied.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(emptied.headers.get('x-ratelimit-reset')).toBe(seconds(T0 + 1_000));

    // The window is the tightest: its oldest request leaves it a minute after it was sent.
    const windowed = await sim({ limits: { endpointPerMinute: 2, burst: 10 } });
    await get(windowed, '/get-brands');
    windowed.clock.advance(2_000);
    const second = await get(windowed, '/get-brands');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(second.headers.get('x-ratelimit-reset')).toBe(seconds(T0 + 60_000));

    // The day is the tightest: it resets at midnight UTC (T0 is 15:00).
    const daily = await sim({ limits: { perDay: 2 } });
    const last = await get(daily, '/get-brands');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(last.headers.get('x-ratelimit-reset')).toBe(seconds(T0 + 9 * 3_600_000));
  });
});

describe('key token bucket', () => {
  it('a burst beyond capacity is 429 with Retry-After, then a token returns at the refill rate', async () => {
    const s = await sim({ limits: { burst: 3, perMinute: 60 } });
    for (let i = 0; i < 3; i++) expect((await get(s, '/get-brands')).status).toBe(200);
    const limited = await get(s, '/get-content-ideas', { brand_id: acme });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Rate limit exceeded: 60 per 1 minute' });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    s.clock.advance(1_000);
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect((await get(s, '/get-brands')).status).toBe(429);
  });

  it('429s are recorded with the other requests, and consume nothing', async () => {
    const s = await sim({ limits: { burst: 1, perMinute: 1, perDay: 2 } });
    await get(s, '/get-brands');
    await get(s, '/get-brands');
    expect(s.requests.map((r) => [r.path, r.status])).toEqual([
      ['/get-brands', 200],
      ['/get-brands', 429],
    ]);
    s.clock.advance(60_000);
    // The rejected request did not count against the day: one more fits.
    expect((await get(s, '/get-brands')).status).toBe(200);
  });
});

describe('per-endpoint windows', () => {
  it('no more than the endpoint limit in any window; other endpoints are unaffected', async () => {
    const s = await sim({ limits: { endpointPerMinute: 2, windowMs: 1_000 } });
    expect((await get(s, '/get-brands')).status).toBe(200);
    s.clock.advance(400);
    expect((await get(s, '/get-brands')).status).toBe(200);
    const limited = await get(s, '/get-brands');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Rate limit exceeded: 2 per 1 minute');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await get(s, '/get-citations', { brand_id: acme })).status).toBe(200);

    // The first request leaves the window at 1000 ms; the second at 1400 ms.
    s.clock.advance(600);
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect((await get(s, '/get-brands')).status).toBe(429);
  });

  it('the docs/api.md table applies by default: POST /get-content-ideas is 10 per minute', async () => {
    const s = await sim();
    for (let i = 0; i < 10; i++) {
      expect(
        (await call(s, 'POST', '/get-content-ideas', { body: { brand_id: acme, action: 'refresh' } })).status,
      ).toBe(200);
    }
    const limited = await call(s, 'POST', '/get-content-ideas', {
      body: { brand_id: acme, action: 'refresh' },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Rate limit exceeded: 10 per 1 minute');
    expect((await get(s, '/get-content-ideas', { brand_id: acme })).status).toBe(200);
  });

  it('brand writes share one 30/min window across endpoints', async () => {
    const s = await sim();
    const writes = [
      () => call(s, 'PUT', '/get-brands/aliases', { body: { brand_id: acme, aliases: ['Acme'] } }),
      () => call(s, 'PUT', '/get-brands/location', { body: { brand_id: acme, country: 'US' } }),
      () => call(s, 'POST', '/get-brands/markets', { body: { brand_id: acme, location: 'GB' } }),
    ];
    for (let i = 0; i < 30; i++) expect((await writes[i % 3]!()).status).not.toBe(429);
    const limited = await writes[0]!();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Rate limit exceeded: 30 per 1 minute');
    expect((await get(s, '/get-brands')).status).toBe(200);
  });
});

describe('daily count', () => {
  it('stops at perDay until the next UTC day', async () => {
    const s = await sim({ limits: { perDay: 3 } });
    for (let i = 0; i < 3; i++) expect((await get(s, '/get-brands')).status).toBe(200);
    const limited = await get(s, '/get-brands');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Rate limit exceeded: 3 per 1 day');
    // T0 is 15:00 UTC: nine hours to midnight.
    expect(limited.headers.get('retry-after')).toBe(String(9 * 3600));
    s.clock.advance(9 * 3_600_000);
    expect((await get(s, '/get-brands')).status).toBe(200);
  });

  it('the enterprise plan has no daily cap and a bigger bucket', async () => {
    const s = await sim({ plan: 'enterprise' });
    const res = await get(s, '/__control/state');
    expect(res.body.limits).toMatchObject({ perMinute: 300, burst: 500, perDay: null });
  });
});

describe('setLimits', () => {
  it('changes the limits and starts the counters afresh', async () => {
    const s = await sim({ limits: { burst: 1 } });
    await get(s, '/get-brands');
    expect((await get(s, '/get-brands')).status).toBe(429);
    s.control.setLimits({ burst: 2 });
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect((await get(s, '/get-brands')).status).toBe(429);
    expect(() => s.control.setLimits({ burst: 0 })).toThrow(/burst/);
  });
});
