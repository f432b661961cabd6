/**
 * Every endpoint's happy path, validated against the client's zod schemas
 * (src/api/schemas), so the simulator and the client agree on the wire format.
 */
import { describe, expect, it } from 'vitest';
import {
  aiPagesRecordSchema,
  aliasesResponseSchema,
  brandsResponseSchema,
  citationFeedResponseSchema,
  citationHeatmapResponseSchema,
  citationHistoryResponseSchema,
  citationListResponseSchema,
  citationQueriesResponseSchema,
  citationSourcesResponseSchema,
  contentIdeasResponseSchema,
  crawlerOverviewSchema,
  cursorMetaSchema,
  feedEventTypes,
  ideaStatuses,
  ideaTypes,
  locationResponseSchema,
  loosePayloadSchema,
  marketSchema,
  refreshIdeasResponseSchema,
  removeMarketResponseSchema,
  submitStatuses,
} from '../../../src/api/schemas/index.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
const globex = SEED_BRANDS.globex.id;

describe('simulator contract: brands', () => {
  it('GET /get-brands lists the five seed brands with roles, markets and aliases on request', async () => {
    const s = await sim();
    const res = await get(s, '/get-brands', { include: 'markets,aliases' });
    expect(res.status).toBe(200);
    const { brands } = brandsResponseSchema.parse(res.body);
    expect(brands.map((b) => b.name).sort()).toEqual(
      ['Acme Analytics', 'Acme Labs', 'Globex Corporation', 'Initech', 'Northwind Outfitters'].sort(),
    );
    const byName = new Map(brands.map((b) => [b.name, b]));
    expect(byName.get('Acme Analytics')).toMatchObject({ role: 'owner', location: 'US' });
    expect(byName.get('Acme Analytics')!.markets!.length).toBeGreaterThanOrEqual(3);
    expect(byName.get('Acme Analytics')!.markets!.filter((m) => m.is_primary)).toHaveLength(1);
    expect(byName.get('Acme Analytics')!.aliases!.length).toBeGreaterThan(0);
    expect(byName.get('Northwind Outfitters')!.role).toBe('viewer');
    expect(byName.get('Initech')!.role).toBe('editor');
    expect(byName.get('Globex Corporation')).toMatchObject({ location: null, markets: [] });
    for (const b of brands) for (const m of b.markets!) marketSchema.parse(m);
  });

  it('GET /get-brands without include omits markets and aliases; brand_id filters', async () => {
    const s = await sim();
    const plain = brandsResponseSchema.parse((await get(s, '/get-brands')).body);
    expect(plain.brands.every((b) => b.markets === undefined && b.aliases === undefined)).toBe(true);
    const one = brandsResponseSchema.parse(
      (await get(s, '/get-brands', { brand_id: acme, include: 'aliases' })).body,
    );
    expect(one.brands).toHaveLength(1);
    expect(one.brands[0]).toMatchObject({ id: acme, aliases: expect.any(Array) });
    expect(one.brands[0]!.markets).toBeUndefined();
  });

  it('brand writes answer with the documented shapes', async () => {
    const s = await sim();
    const added = await call(s, 'POST', '/get-brands/markets', {
      body: { brand_id: acme, location: 'FR', market_name: 'France' },
    });
    expect(added.status).toBeLessThan(300);
    const market = marketSchema.parse(added.body);
    expect(market).toMatchObject({
      brand_id: acme,
      location: 'FR',
      is_primary: false,
      market_name: 'France',
    });

    const removed = await call(s, 'DELETE', '/get-brands/markets', {
      query: { brand_id: acme, market_id: market.id },
    });
    expect(removed.status).toBe(200);
    removeMarketResponseSchema.parse(removed.body);

    const location = await call(s, 'PUT', '/get-brands/location', {
      body: { brand_id: acme, country: 'US', location_region: 'New York', location_city: 'New York' },
    });
    expect(location.status).toBe(200);
    expect(locationResponseSchema.parse(location.body)).toMatchObject({
      location: 'US',
      location_city: 'New York',
    });

    const aliases = await call(s, 'PUT', '/get-brands/aliases', {
      body: { brand_id: acme, aliases: ['Acme', 'ACME Co'] },
    });
    expect(aliasesResponseSchema.parse(aliases.body)).toEqual({
      success: true,
      brand_id: acme,
      aliases: ['Acme', 'ACME Co'],
    });
  });
});

describe('simulator contract: content ideas', () => {
  it('GET /get-content-ideas: dozens of ideas of every type and status, ranked by score', async () => {
    const s = await sim();
    const res = await get(s, '/get-content-ideas', { brand_id: acme, limit: 200 });
    const body = contentIdeasResponseSchema.parse(res.body);
    expect(body.ideas.length).toBeGreaterThanOrEqual(24);
    expect(new Set(body.ideas.map((i) => i.type))).toEqual(new Set(ideaTypes));
    expect(new Set(body.ideas.map((i) => i.status))).toEqual(new Set(ideaStatuses));
    const scores = body.ideas.map((i) => i.opportunity_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(body.meta).toMatchObject({
      generation_status: 'completed',
      total_opportunities: body.ideas.length,
    });
    expect(body.pagination).toEqual({ total: body.ideas.length, limit: 200, offset: 0, has_more: false });
  });

  it('POST /get-content-ideas refresh answers {status, message}', async () => {
    const s = await sim();
    const res = await call(s, 'POST', '/get-content-ideas', { body: { brand_id: acme, action: 'refresh' } });
    expect(res.status).toBe(200);
    expect(refreshIdeasResponseSchema.parse(res.body)).toMatchObject({
      status: 'generating',
      message: expect.any(String),
    });
  });
});

describe('simulator contract: citations', () => {
  it('list view: 60+ citations across domains, models and sentiments', async () => {
    const s = await sim();
    const body = citationListResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, limit: 500 })).body,
    );
    expect(body.brand).toEqual({ id: acme, name: 'Acme Analytics' });
    expect(body.citations.length).toBeGreaterThanOrEqual(60);
    expect(body.pagination.total).toBe(body.citations.length);
    expect(new Set(body.citations.map((c) => c.domain)).size).toBeGreaterThanOrEqual(12);
    expect(new Set(body.citations.map((c) => c.search_model)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(body.citations.map((c) => c.metrics.sentiment))).toEqual(
      new Set(['positive', 'neutral', 'negative']),
    );
    for (const c of body.citations) {
      expect(new URL(c.url).hostname).toBe(c.domain);
      expect(c.date).toBe('2025-03-14');
    }
  });

  it('history view: one point per daily snapshot plus competitor series', async () => {
    const s = await sim();
    const body = citationHistoryResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, view: 'history', days: 14 })).body,
    );
    expect(body.brand_time_series).toHaveLength(14);
    expect(body.date_range).toEqual({ start: '2025-03-01', end: '2025-03-14' });
    expect(body.snapshots_available).toBeGreaterThanOrEqual(30);
    expect(Object.keys(body.competitor_time_series)).toContain('Mixpanel');
    expect(body.competitor_time_series['Mixpanel']).toHaveLength(14);
  });

  it('queries view: clusters by intent, top and gap queries', async () => {
    const s = await sim();
    const body = citationQueriesResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, view: 'queries' })).body,
    );
    expect(body.clusters.length).toBeGreaterThanOrEqual(4);
    expect(body.top_queries.length).toBeGreaterThan(0);
    expect(body.gap_queries.length).toBeGreaterThan(0);
    for (const intent of Object.keys(body.coverage_by_intent)) {
      expect(['comparison', 'alternative', 'best_for', 'discovery', 'recommendation']).toContain(intent);
    }
  });

  it('sources view: an exact domain with its pages', async () => {
    const s = await sim();
    const list = citationListResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, limit: 500 })).body,
    );
    const domain = list.citations[0]!.domain;
    const body = citationSourcesResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, view: 'sources', domain })).body,
    );
    expect(body.domain).toBe(domain);
    expect(body.unique_pages).toBe(list.citations.filter((c) => c.domain === domain).length);
    expect(body.pages.every((p) => new URL(p.url).hostname === domain)).toBe(true);
  });

  it('feed view: events of the documented types', async () => {
    const s = await sim();
    const body = citationFeedResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, view: 'feed' })).body,
    );
    expect(body.current_snapshot_date).toBe('2025-03-14');
    expect(body.previous_snapshot_date).toBe('2025-03-07');
    for (const e of body.events) expect(feedEventTypes).toContain(e.event_type);
  });

  it('heatmap view: a domain × brand grid', async () => {
    const s = await sim();
    const body = citationHeatmapResponseSchema.parse(
      (await get(s, '/get-citations', { brand_id: acme, view: 'heatmap' })).body,
    );
    expect(body.your_brand).toBe('Acme Analytics');
    expect(body.cells).toHaveLength(body.domains.length * body.brands.length);
    expect(Object.keys(body.competitor_coverage)).toEqual(body.brands.slice(1));
  });
});

describe('simulator contract: crawler', () => {
  it('GET /crawler/overview matches the schema for every preset', async () => {
    const s = await sim();
    for (const preset of ['24h', '7d', '30d', '90d'] as const) {
      const res = await get(s, '/crawler/overview', {
        brand_id: acme,
        range_preset: preset,
        compare_to: 'previous_period',
      });
      const body = crawlerOverviewSchema.parse(res.body);
      expect(body.range.range_preset).toBe(preset);
      expect(body.chart.series).toHaveLength(body.range.days);
      expect(body.hero.total_visits).toBe(body.chart.series.reduce((n, p) => n + p.count, 0));
      expect(typeof body.hero.total_visits_change).toBe('number');
    }
  });

  it('the other crawler reads answer loose payloads; cursor-paged ones carry meta', async () => {
    const s = await sim();
    const paged = [
      ['/crawler/live', { view: 'activity' }],
      ['/crawler/live', { view: 'pages' }],
      ['/crawler/live', { view: 'sessions' }],
      ['/crawler/pages', { lens: 'pages' }],
      ['/crawler/pages', { lens: 'paths' }],
      ['/crawler/pages', { lens: 'bots' }],
    ] as const;
    for (const [path, query] of paged) {
      const res = await get(s, path, { brand_id: acme, ...query });
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(200);
      loosePayloadSchema.parse(res.body);
      expect(cursorMetaSchema.parse(res.body.meta).limit).toBe(25);
      expect(res.body.items.length).toBeGreaterThan(0);
    }
    const pageId = (await get(s, '/crawler/pages', { brand_id: acme })).body.items[0].id;
    const drawers = [
      ['/crawler/page-details', { kind: 'page', entity_id: pageId }],
      ['/crawler/path-details', { kind: 'path', entity_id: '/blog' }],
      ['/crawler/bot-details', { kind: 'bot', entity_id: 'gptbot' }],
      ['/crawler/access', {}],
      ['/crawler/submit-to-search/status', {}],
    ] as const;
    for (const [path, query] of drawers) {
      const res = await get(s, path, { brand_id: acme, ...query });
      expect(res.status, path).toBe(200);
      loosePayloadSchema.parse(res.body);
    }
  });

  it('the crawler actions answer loose payloads', async () => {
    const s = await sim();
    const access = await get(s, '/crawler/access', { brand_id: acme });
    const findingId = access.body.findings[0].id;
    const preview = await call(s, 'POST', '/crawler/access/preview-fix', {
      body: { brand_id: acme, finding_id: findingId },
    });
    expect(preview.status).toBe(200);
    expect(loosePayloadSchema.parse(preview.body)).toMatchObject({ finding_id: findingId, applied: false });

    const ping = await call(s, 'POST', '/crawler/verification-ping', { body: { brand_id: acme } });
    expect(ping.status).toBe(200);
    expect(ping.body.status).toBe('sent');

    const submit = await call(s, 'POST', '/crawler/submit-to-search', {
      body: {
        brand_id: acme,
        urls: 'https://www.acmeanalytics.com/pricing,https://www.acmeanalytics.com/blog/new-post',
      },
    });
    expect(submit.status).toBe(200);
    expect(submitStatuses).toContain(submit.body.status);
  });
});

describe('simulator contract: AI Pages', () => {
  it('/ai-pages and /prism answer the same AI Pages record', async () => {
    const s = await sim();
    const a = aiPagesRecordSchema.parse((await get(s, '/ai-pages', { brand_id: acme })).body);
    const p = aiPagesRecordSchema.parse((await get(s, '/prism', { brand_id: acme })).body);
    expect(p).toEqual(a);
    expect(a.config).toMatchObject({ enabled: true, domain: 'acmeanalytics.com' });
    expect(a.config!.features.every((f) => /^[a-z]+$/.test(f))).toBe(true);
    expect(a.usage!.percentage_used).toBeCloseTo(42, 0);
    expect(a.usage!.requests_this_month).toBe(
      Math.round((a.usage!.requests_limit * a.usage!.percentage_used) / 100),
    );
    expect(a.usage!.reset_date).toBe('2025-04-01T00:00:00.000Z');
  });

  it('a brand without AI Pages set up gets 200 with config and usage null', async () => {
    const s = await sim();
    const res = await get(s, '/ai-pages', { brand_id: globex });
    expect(res.status).toBe(200);
    expect(aiPagesRecordSchema.parse(res.body)).toMatchObject({
      config: null,
      usage: null,
      brand: { id: globex },
    });
  });
});
