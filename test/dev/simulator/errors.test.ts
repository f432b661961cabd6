/**
 * Every documented error of the simulated service, with the status and an error body in
 * one of the three shapes docs/api.md §7 lists.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, errorText, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
const northwind = SEED_BRANDS.northwind.id;
const initech = SEED_BRANDS.initech.id;

/** One of `{error, errors}`, `{type, code, message, param}`, `{detail}`. */
function expectKnownShape(body: Record<string, unknown>) {
  const keys = Object.keys(body).sort().join(',');
  expect(['error,errors', 'code,message,param,type', 'detail']).toContain(keys);
}

describe('authentication', () => {
  it('a missing bearer key is 401', async () => {
    const s = await sim();
    const res = await call(s, 'GET', '/get-brands', { auth: false });
    expect(res.status).toBe(401);
    expectKnownShape(res.body);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a wrong key is 401 with a {detail:{code,message}} body', async () => {
    const s = await sim();
    const res = await call(s, 'GET', '/get-brands', { auth: 'sk_live_0123456789abcdef0123456789abcdef' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: { code: 'invalid_api_key', message: expect.any(String) } });
  });

  it('the accepted key looks like a live key', async () => {
    const s = await sim();
    expect(s.apiKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
  });
});

describe('role and entitlement', () => {
  const viewerWrites = [
    ['POST', '/get-brands/markets', { body: { brand_id: northwind, location: 'GB' } }],
    [
      'DELETE',
      '/get-brands/markets',
      { query: { brand_id: northwind, market_id: '00000000-0000-4000-8000-000000000000' } },
    ],
    ['PUT', '/get-brands/location', { body: { brand_id: northwind, country: 'GB' } }],
    ['PUT', '/get-brands/aliases', { body: { brand_id: northwind, aliases: ['NW'] } }],
    ['POST', '/crawler/verification-ping', { body: { brand_id: northwind } }],
    [
      'POST',
      '/crawler/submit-to-search',
      { body: { brand_id: northwind, urls: 'https://www.northwindoutfitters.com/' } },
    ],
  ] as const;

  it.each(viewerWrites)('%s %s on the viewer brand is 403', async (method, path, options) => {
    const s = await sim();
    const res = await call(s, method, path, options);
    expect(res.status).toBe(403);
    expectKnownShape(res.body);
    expect(errorText(res.body)).toMatch(/editor access/);
  });

  it('the viewer brand can still read', async () => {
    const s = await sim();
    expect((await get(s, '/get-citations', { brand_id: northwind })).status).toBe(200);
    expect((await get(s, '/crawler/overview', { brand_id: northwind })).status).toBe(200);
  });

  it.each(['/ai-pages', '/prism'])('%s is 403 when the plan lacks AI Pages', async (path) => {
    const s = await sim();
    const res = await get(s, path, { brand_id: initech });
    expect(res.status).toBe(403);
    expectKnownShape(res.body);
    expect(errorText(res.body)).toMatch(/AI Pages/);
  });

  it('the editor brand may ping and submit', async () => {
    const s = await sim();
    expect(
      (await call(s, 'POST', '/crawler/verification-ping', { body: { brand_id: initech } })).status,
    ).toBe(200);
  });
});

describe('brand ids', () => {
  it('an unknown brand is 404 and a malformed brand_id is 400', async () => {
    const s = await sim();
    const unknown = await get(s, '/get-citations', { brand_id: '11111111-2222-4333-8444-555555555555' });
    expect(unknown.status).toBe(404);
    expectKnownShape(unknown.body);
    const malformed = await get(s, '/get-citations', { brand_id: 'acme' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errors: [{ param: 'brand_id' }] });
    const missing = await get(s, '/crawler/overview');
    expect(missing.status).toBe(400);
  });
});

describe('citations errors', () => {
  it('view=sources without domain is 400', async () => {
    const s = await sim();
    const res = await get(s, '/get-citations', { brand_id: acme, view: 'sources' });
    expect(res.status).toBe(400);
    expect(errorText(res.body)).toMatch(/domain/);
  });

  it('view=sources for a domain with no citations is 404; a partial domain does not match', async () => {
    const s = await sim();
    expect(
      (await get(s, '/get-citations', { brand_id: acme, view: 'sources', domain: 'example.org' })).status,
    ).toBe(404);
    expect((await get(s, '/get-citations', { brand_id: acme, view: 'sources', domain: 'g2' })).status).toBe(
      404,
    );
  });
});

describe('parameter bounds (docs/api.md §8) are 400', () => {
  const cases: [string, Record<string, string | number>][] = [
    ['/get-content-ideas', { limit: 0 }],
    ['/get-content-ideas', { limit: 201 }],
    ['/get-content-ideas', { limit: 'ten' }],
    ['/get-content-ideas', { offset: -1 }],
    ['/get-content-ideas', { status: 'archived' }],
    ['/get-citations', { limit: 0 }],
    ['/get-citations', { limit: 501 }],
    ['/get-citations', { view: 'history', days: 6 }],
    ['/get-citations', { view: 'history', days: 366 }],
    ['/get-citations', { view: 'feed', days_back: 0 }],
    ['/get-citations', { view: 'feed', days_back: 31 }],
    ['/get-citations', { view: 'charts' }],
    ['/get-citations', { tag_ids: 'not-a-uuid' }],
    ['/crawler/overview', { range_preset: '14d' }],
    ['/crawler/overview', { compare_to: 'last_year' }],
    ['/crawler/overview', { range_preset: 'custom' }],
    ['/crawler/overview', { range_preset: 'custom', start_date: '2025-03-01' }],
    ['/crawler/overview', { range_preset: 'custom', end_date: '2025-03-10' }],
    ['/crawler/overview', { range_preset: 'custom', start_date: '2025-03-10', end_date: '2025-03-01' }],
    ['/crawler/overview', { range_preset: 'custom', start_date: '2025-02-30', end_date: '2025-03-01' }],
    ['/crawler/live', { limit: 0 }],
    ['/crawler/live', { limit: 101 }],
    ['/crawler/live', { view: 'map' }],
    ['/crawler/live', { intent: 'agent' }],
    ['/crawler/live', { http_status: '99' }],
    ['/crawler/live', { cursor: 'garbage' }],
    ['/crawler/pages', { lens: 'domains' }],
    ['/crawler/pages', { status: 'warm' }],
    ['/crawler/page-details', {}],
    ['/crawler/bot-details', { kind: 'page', entity_id: 'gptbot' }],
    ['/get-brands', { include: 'markets,owners' }],
  ];
  it.each(cases)('%s %j', async (path, query) => {
    const s = await sim();
    const res = await get(s, path, { brand_id: acme, ...query });
    expect(res.status).toBe(400);
    expectKnownShape(res.body);
  });

  it('custom range without dates names the missing parameter', async () => {
    const s = await sim();
    const res = await get(s, '/crawler/overview', { brand_id: acme, range_preset: 'custom' });
    expect(res.body).toMatchObject({ errors: [{ param: 'start_date' }] });
  });

  it('a custom range with both dates is accepted', async () => {
    const s = await sim();
    const res = await get(s, '/crawler/overview', {
      brand_id: acme,
      range_preset: 'custom',
      start_date: '2025-02-01',
      end_date: '2025-02-28',
    });
    expect(res.status).toBe(200);
    expect(res.body.range).toMatchObject({ start: '2025-02-01', end: '2025-02-28', days: 28 });
  });
});

describe('markets', () => {
  it('adding a market that exists is 409 "Market GB already exists"', async () => {
    const s = await sim();
    const res = await call(s, 'POST', '/get-brands/markets', { body: { brand_id: acme, location: 'gb' } });
    expect(res.status).toBe(409);
    expectKnownShape(res.body);
    expect(errorText(res.body)).toBe('Market GB already exists');
  });

  it('an unknown location is 400', async () => {
    const s = await sim();
    const res = await call(s, 'POST', '/get-brands/markets', { body: { brand_id: acme, location: 'XX' } });
    expect(res.status).toBe(400);
  });

  it('removing the primary market is refused with a reason', async () => {
    const s = await sim();
    const brands = await get(s, '/get-brands', { brand_id: acme, include: 'markets' });
    const primary = brands.body.brands[0].markets.find((m: { is_primary: boolean }) => m.is_primary);
    const res = await call(s, 'DELETE', '/get-brands/markets', {
      query: { brand_id: acme, market_id: primary.id },
    });
    expect(res.status).toBe(400);
    expectKnownShape(res.body);
    expect(errorText(res.body)).toMatch(/primary market.*brand settings/);
    const after = await get(s, '/get-brands', { brand_id: acme, include: 'markets' });
    expect(after.body.brands[0].markets).toContainEqual(expect.objectContaining({ id: primary.id }));
  });

  it('removing an unknown market is 404', async () => {
    const s = await sim();
    const res = await call(s, 'DELETE', '/get-brands/markets', {
      query: { brand_id: acme, market_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.status).toBe(404);
  });
});

describe('other request errors', () => {
  it('an unknown path is 404 and a wrong method 405, both without auth', async () => {
    const s = await sim();
    expect((await call(s, 'GET', '/get-scores', { auth: false })).status).toBe(404);
    expect((await call(s, 'PATCH', '/get-brands', { auth: false })).status).toBe(405);
  });

  it('a body that is not JSON is 400', async () => {
    const s = await sim();
    const res = await fetch(`${s.url}/get-brands/aliases`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' },
      body: '{"brand_id": ',
    });
    expect(res.status).toBe(400);
  });

  it('refresh needs action=refresh', async () => {
    const s = await sim();
    const res = await call(s, 'POST', '/get-content-ideas', {
      body: { brand_id: acme, action: 'regenerate' },
    });
    expect(res.status).toBe(400);
  });

  it('submit-to-search wants comma-separated absolute URLs', async () => {
    const s = await sim();
    for (const urls of [
      '/pricing',
      'https://www.acmeanalytics.com/a, pricing',
      '',
      ['https://www.acmeanalytics.com/'],
    ]) {
      const res = await call(s, 'POST', '/crawler/submit-to-search', { body: { brand_id: acme, urls } });
      expect(res.status, JSON.stringify(urls)).toBe(400);
    }
  });

  it('preview-fix of an unknown finding and drawers of unknown entities are 404', async () => {
    const s = await sim();
    const fix = await call(s, 'POST', '/crawler/access/preview-fix', {
      body: { brand_id: acme, finding_id: 'fnd_nope' },
    });
    expect(fix.status).toBe(404);
    expect((await get(s, '/crawler/page-details', { brand_id: acme, entity_id: 'pg_missing' })).status).toBe(
      404,
    );
    expect((await get(s, '/crawler/path-details', { brand_id: acme, entity_id: '/nowhere' })).status).toBe(
      404,
    );
    expect((await get(s, '/crawler/bot-details', { brand_id: acme, entity_id: 'NotABot' })).status).toBe(404);
  });

  it('uses all three error-body shapes across its errors', async () => {
    const s = await sim();
    const bodies = [
      (await get(s, '/get-citations', { brand_id: acme, limit: 0 })).body,
      (await call(s, 'POST', '/get-brands/markets', { body: { brand_id: acme, location: 'GB' } })).body,
      (await call(s, 'GET', '/get-brands', { auth: false })).body,
    ];
    expect(bodies.map((b) => Object.keys(b).sort().join(','))).toEqual([
      'error,errors',
      'code,message,param,type',
      'detail',
    ]);
  });
});
