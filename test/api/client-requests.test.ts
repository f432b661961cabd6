/**
 * Every client method sends the documented method, path, query and body (docs/api.md §4,
 * docs/api.md §10's crawler parameters), with the auth and content headers, and returns the
 * parsed payload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import type { EndpointKey } from '../../src/api/endpoint-table.js';
import { type ApiHarness, startApiHarness } from '../helpers/api-client-harness.js';
import * as fx from '../helpers/api-payloads.js';
import { sendJson } from '../helpers/http-test-server.js';

interface Case {
  name: string;
  call: (c: ApiClient) => Promise<unknown>;
  endpoint: EndpointKey;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  reply: unknown;
  /** Checked against the result; defaults to `reply`. */
  expected?: unknown;
}

const B = fx.BRAND_ID;

const cases: Case[] = [
  {
    name: 'getContentIdeas',
    call: (c) => c.getContentIdeas({ brandId: B, limit: 200, offset: 50, status: 'active' }),
    endpoint: 'getContentIdeas',
    method: 'GET',
    path: '/get-content-ideas',
    query: { brand_id: B, limit: '200', offset: '50', status: 'active' },
    reply: fx.contentIdeas,
  },
  {
    name: 'getContentIdeas with defaults sends only brand_id',
    call: (c) => c.getContentIdeas({ brandId: B }),
    endpoint: 'getContentIdeas',
    method: 'GET',
    path: '/get-content-ideas',
    query: { brand_id: B },
    reply: fx.contentIdeas,
  },
  {
    name: 'refreshContentIdeas',
    call: (c) => c.refreshContentIdeas({ brandId: B }),
    endpoint: 'refreshContentIdeas',
    method: 'POST',
    path: '/get-content-ideas',
    body: { brand_id: B, action: 'refresh' },
    reply: { status: 'generating', message: 'Content ideas generation started' },
    expected: { status: 'generating', message: 'Content ideas generation started' },
  },
  {
    name: 'getBrands',
    call: (c) => c.getBrands({ brandId: B, include: ['markets', 'aliases'] }),
    endpoint: 'getBrands',
    method: 'GET',
    path: '/get-brands',
    query: { brand_id: B, include: 'markets,aliases' },
    reply: fx.brands,
  },
  {
    name: 'getBrands without params',
    call: (c) => c.getBrands(),
    endpoint: 'getBrands',
    method: 'GET',
    path: '/get-brands',
    query: {},
    reply: fx.brands,
  },
  {
    name: 'addMarket',
    call: (c) => c.addMarket({ brandId: B, location: 'gb', marketName: 'United Kingdom' }),
    endpoint: 'addMarket',
    method: 'POST',
    path: '/get-brands/markets',
    body: { brand_id: B, location: 'GB', market_name: 'United Kingdom' },
    reply: fx.market,
  },
  {
    name: 'removeMarket (empty 204 success body)',
    call: (c) => c.removeMarket({ brandId: B, marketId: fx.MARKET_ID }),
    endpoint: 'removeMarket',
    method: 'DELETE',
    path: '/get-brands/markets',
    query: { brand_id: B, market_id: fx.MARKET_ID },
    reply: '',
    expected: {},
  },
  {
    name: 'setLocation',
    call: (c) =>
      c.setLocation({ brandId: B, country: 'UK', region: 'England', city: 'London', providerCode: 1006886 }),
    endpoint: 'setLocation',
    method: 'PUT',
    path: '/get-brands/location',
    body: {
      brand_id: B,
      country: 'UK',
      location_region: 'England',
      location_city: 'London',
      location_provider_code: 1006886,
    },
    reply: fx.locationResponse,
  },
  {
    name: 'setAliases',
    call: (c) => c.setAliases({ brandId: B, aliases: ['Acme', 'Acme Run'] }),
    endpoint: 'setAliases',
    method: 'PUT',
    path: '/get-brands/aliases',
    body: { brand_id: B, aliases: ['Acme', 'Acme Run'] },
    reply: fx.aliasesResponse,
  },
  {
    name: 'getCitationList',
    call: (c) =>
      c.getCitationList({
        brandId: B,
        limit: 500,
        offset: 0,
        domain: 'example.com',
        tagIds: [fx.TAG_ID, fx.MARKET_ID],
        promptText: 'running shoes',
      }),
    endpoint: 'getCitations',
    method: 'GET',
    path: '/get-citations',
    query: {
      brand_id: B,
      view: 'list',
      limit: '500',
      offset: '0',
      domain: 'example.com',
      tag_ids: `${fx.TAG_ID},${fx.MARKET_ID}`,
      prompt_text: 'running shoes',
    },
    reply: fx.citationList,
  },
  {
    name: 'getCitationHistory',
    call: (c) => c.getCitationHistory({ brandId: B, days: 90 }),
    endpoint: 'getCitations',
    method: 'GET',
    path: '/get-citations',
    query: { brand_id: B, view: 'history', days: '90' },
    reply: fx.citationHistory,
  },
  {
    name: 'getCitationQueries',
    call: (c) => c.getCitationQueries({ brandId: B, promptText: 'shoes' }),
    endpoint: 'getCitations',
    method: 'GET',
    path: '/get-citations',
    query: { brand_id: B, view: 'queries', prompt_text: 'shoes' },
    reply: fx.citationQueries,
  },
  {
    name: 'getCitationSources',
    call: (c) => c.getCitationSources({ brandId: B, domain: 'runnersworld.com', limit: 10 }),
    endpoint: 'getCitations',
    method: 'GET',
    path: '/get-citations',
    query: { brand_id: B, view: 'sources', domain: 'runnersworld.com', limit: '10' },
    reply: fx.citationSources,
  },
  {
    name: 'getCitationFeed',
    call: (c) => c.getCitationFeed({ brandId: B, daysBack: 30 }),
    endpoint: 'getCitations',
    method: 'GET',
    path: '/get-citations',
    query: { brand_id: B, view: 'feed', days_back: '30' },
    reply: fx.citationFeed,
  },
  {
    name: 'getCitationHeatmap',
    call: (c) => c.getCitationHeatmap({ brandId: B, tagIds: [fx.TAG_ID] }),
    endpoint: 'getCitations',
    method: 'GET',
    path: '/get-citations',
    query: { brand_id: B, view: 'heatmap', tag_ids: fx.TAG_ID },
    reply: fx.citationHeatmap,
  },
  {
    name: 'getCrawlerOverview (custom range)',
    call: (c) =>
      c.getCrawlerOverview({
        brandId: B,
        rangePreset: 'custom',
        startDate: '2025-01-06',
        endDate: '2025-01-12',
        compareTo: 'previous_period',
      }),
    endpoint: 'getCrawlerOverview',
    method: 'GET',
    path: '/crawler/overview',
    query: {
      brand_id: B,
      range_preset: 'custom',
      start_date: '2025-01-06',
      end_date: '2025-01-12',
      compare_to: 'previous_period',
    },
    reply: fx.crawlerOverview,
  },
  {
    name: 'getCrawlerLive',
    call: (c) =>
      c.getCrawlerLive({
        brandId: B,
        rangePreset: '24h',
        view: 'sessions',
        intent: 'search',
        platform: 'GPTBot',
        httpStatus: 404,
        search: '/blog',
        cursor: 'abc',
        limit: 100,
      }),
    endpoint: 'getCrawlerLive',
    method: 'GET',
    path: '/crawler/live',
    query: {
      brand_id: B,
      range_preset: '24h',
      view: 'sessions',
      intent: 'search',
      platform: 'GPTBot',
      http_status: '404',
      search: '/blog',
      cursor: 'abc',
      limit: '100',
    },
    reply: fx.cursorPage,
  },
  {
    name: 'getCrawlerPages',
    call: (c) =>
      c.getCrawlerPages({ brandId: B, lens: 'bots', status: 'cold', intent: 'training', limit: 1 }),
    endpoint: 'getCrawlerPages',
    method: 'GET',
    path: '/crawler/pages',
    query: { brand_id: B, lens: 'bots', status: 'cold', intent: 'training', limit: '1' },
    reply: fx.cursorPage,
  },
  {
    name: 'getCrawlerPageDetails',
    call: (c) => c.getCrawlerPageDetails({ brandId: B, kind: 'page', entityId: 'https://acme.example/' }),
    endpoint: 'getCrawlerPageDetails',
    method: 'GET',
    path: '/crawler/page-details',
    query: { brand_id: B, kind: 'page', entity_id: 'https://acme.example/' },
    reply: { verdict: 'healthy', pipeline: [] },
  },
  {
    name: 'getCrawlerPathDetails',
    call: (c) => c.getCrawlerPathDetails({ brandId: B, entityId: '/blog', rangePreset: '90d' }),
    endpoint: 'getCrawlerPathDetails',
    method: 'GET',
    path: '/crawler/path-details',
    query: { brand_id: B, entity_id: '/blog', range_preset: '90d' },
    reply: { verdict: 'cold' },
  },
  {
    name: 'getCrawlerBotDetails',
    call: (c) => c.getCrawlerBotDetails({ brandId: B, kind: 'bot', entityId: 'GPTBot' }),
    endpoint: 'getCrawlerBotDetails',
    method: 'GET',
    path: '/crawler/bot-details',
    query: { brand_id: B, kind: 'bot', entity_id: 'GPTBot' },
    reply: { verdict: 'crawled', top_pages: [] },
  },
  {
    name: 'getCrawlerAccess',
    call: (c) => c.getCrawlerAccess({ brandId: B, rangePreset: '30d' }),
    endpoint: 'getCrawlerAccess',
    method: 'GET',
    path: '/crawler/access',
    query: { brand_id: B, range_preset: '30d' },
    reply: { findings: [{ id: 'f1' }], robots: { present: true } },
  },
  {
    name: 'previewAccessFix',
    call: (c) => c.previewAccessFix({ brandId: B, findingId: 'f1' }),
    endpoint: 'previewAccessFix',
    method: 'POST',
    path: '/crawler/access/preview-fix',
    body: { brand_id: B, finding_id: 'f1' },
    reply: { preview: 'User-agent: GPTBot\nAllow: /' },
  },
  {
    name: 'verificationPing',
    call: (c) => c.verificationPing({ brandId: B }),
    endpoint: 'verificationPing',
    method: 'POST',
    path: '/crawler/verification-ping',
    body: { brand_id: B },
    reply: { ok: true },
  },
  {
    name: 'submitToSearch',
    call: (c) =>
      c.submitToSearch({ brandId: B, urls: ['https://acme.example/a', 'http://acme.example/b?x=1,2'] }),
    endpoint: 'submitToSearch',
    method: 'POST',
    path: '/crawler/submit-to-search',
    body: { brand_id: B, urls: 'https://acme.example/a,http://acme.example/b?x=1%2C2' },
    reply: { status: 'pending', submitted: 2 },
  },
  {
    name: 'getSubmitToSearchStatus',
    call: (c) => c.getSubmitToSearchStatus({ brandId: B }),
    endpoint: 'getSubmitToSearchStatus',
    method: 'GET',
    path: '/crawler/submit-to-search/status',
    query: { brand_id: B },
    reply: { status: 'success' },
  },
  {
    name: 'getAiPages',
    call: (c) => c.getAiPages({ brandId: B }),
    endpoint: 'getAiPages',
    method: 'GET',
    path: '/ai-pages',
    query: { brand_id: B },
    reply: fx.aiPages,
  },
  {
    name: 'getAiPages not set up: config and usage null pass through',
    call: (c) => c.getAiPages({ brandId: B }),
    endpoint: 'getAiPages',
    method: 'GET',
    path: '/ai-pages',
    query: { brand_id: B },
    reply: { ...fx.aiPages, config: null, usage: null },
  },
];

describe('ApiClient: what each method sends', () => {
  let h: ApiHarness;
  let reply: unknown;
  beforeAll(async () => {
    h = await startApiHarness((_req, res) => {
      if (reply === '') {
        res.writeHead(204).end();
        return;
      }
      sendJson(res, 200, reply);
    });
  });
  afterAll(() => h.close());

  it.each(cases)('$name', async (c) => {
    reply = c.reply;
    const before = h.server.requests.length;
    const acquiredBefore = h.limiter.acquired.length;

    const result = await c.call(h.client);

    expect(result).toEqual(c.expected ?? c.reply);
    const sent = h.server.requests.slice(before);
    expect(sent).toHaveLength(1);
    const req = sent[0]!;
    expect(req.method).toBe(c.method);
    expect(req.path).toBe(c.path);
    expect(req.query).toEqual(c.query ?? {});
    if (c.body === undefined) {
      expect(req.body).toBe('');
      expect(req.headers['content-type']).toBeUndefined();
    } else {
      expect(req.json).toEqual(c.body);
      expect(req.headers['content-type']).toBe('application/json');
    }
    expect(req.headers.authorization).toBe(`Bearer ${fx.API_KEY}`);
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^visibility-bot/);
    expect(h.limiter.acquired.slice(acquiredBefore)).toEqual([{ endpoint: c.endpoint, lane: 'interactive' }]);
  });

  it('passes the lane to the limiter and reuses one keep-alive connection', async () => {
    reply = fx.brands;
    const start = h.server.requests.length;
    await h.client.getBrands({}, { lane: 'background' });
    await h.client.getBrands({}, { lane: 'background' });
    expect(h.limiter.acquired.slice(-2)).toEqual([
      { endpoint: 'getBrands', lane: 'background' },
      { endpoint: 'getBrands', lane: 'background' },
    ]);
    for (let i = 0; i < 4; i++) await h.client.getBrands();
    // undici may open a second socket while the first is being released, but a pool that
    // reuses sockets serves six sequential requests over far fewer connections.
    const ports = h.server.requests.slice(start).map((r) => r.remotePort);
    expect(ports).toHaveLength(6);
    expect(new Set(ports).size).toBeLessThanOrEqual(2);
  });

  it('reports every response to the metrics hook', async () => {
    reply = fx.brands;
    await h.client.getBrands();
    expect(h.responses.at(-1)).toMatchObject({ endpoint: 'getBrands', method: 'GET', status: 200 });
    expect(h.responses.at(-1)!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('exposes the limiter state', () => {
    expect(h.client.limiterState().plan).toBe('test');
  });
});

describe('ApiClient: base URL with a path prefix', () => {
  it('appends endpoint paths to the prefix', async () => {
    const h = await startApiHarness((_req, res) => sendJson(res, 200, fx.brands));
    const prefixed = await startApiHarness((_req, res) => sendJson(res, 200, fx.brands), {
      baseUrl: `${h.server.url}/api/`,
    });
    try {
      await prefixed.client.getBrands();
      expect(h.server.requests.map((r) => r.path)).toEqual(['/api/get-brands']);
    } finally {
      await prefixed.close();
      await h.close();
    }
  });
});
