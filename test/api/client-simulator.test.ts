/**
 * The real client against the real simulator (src/dev/simulator): every method's happy path
 * and the simulator's documented errors (docs/simulator.md), plus its injected faults.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InvalidResponseError,
  NoEntitlementError,
  NotFoundError,
  UnauthorizedError,
} from '../../src/api/errors.js';
import type { Clock } from '../../src/clock.js';
import { type RunningSimulator, SEED_BRANDS, startSimulator } from '../../src/dev/simulator/index.js';
import { apiFailure as failure } from '../helpers/api-client-harness.js';
import { type RecordingLimiter, recordingLimiter } from '../helpers/recording-limiter.js';

const ACME = SEED_BRANDS.acme.id;
/** Backoff sleeps are skipped: the faults below are counted, not timed. */
const noSleepClock: Clock = { now: () => Date.now(), sleep: async () => {} };

let sim: RunningSimulator;
let limiter: RecordingLimiter;
let client: ApiClient;

beforeAll(async () => {
  // Limits high enough that this suite never meets the simulator's real rate limits;
  // 429 handling is exercised with the rate-limit fault instead.
  // Generation outlasts the suite, so "generating, then already_generating" cannot race a
  // timer on a busy machine.
  sim = await startSimulator({
    generationMs: 3_600_000,
    limits: { perMinute: 10_000, burst: 10_000, endpointPerMinute: 10_000 },
  });
  limiter = recordingLimiter();
  client = new ApiClient({ baseUrl: sim.url, apiKey: sim.apiKey, limiter, clock: noSleepClock });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});
beforeEach(() => {
  sim.control.clearFaults();
});

describe('happy paths', () => {
  it('content ideas: list and refresh (generating, then already_generating)', async () => {
    const ideas = await client.getContentIdeas({ brandId: ACME, limit: 5, status: 'active' });
    expect(ideas.ideas.length).toBeGreaterThan(0);
    expect(ideas.ideas.length).toBeLessThanOrEqual(5);
    expect(ideas.ideas.every((i) => i.status === 'active')).toBe(true);
    const scores = ideas.ideas.map((i) => i.opportunity_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    expect((await client.refreshContentIdeas({ brandId: ACME })).status).toBe('generating');
    expect((await client.refreshContentIdeas({ brandId: ACME })).status).toBe('already_generating');
  });

  it('brands with markets and aliases', async () => {
    const { brands } = await client.getBrands({ include: ['markets', 'aliases'] });
    const acme = brands.find((b) => b.id === ACME)!;
    expect(acme.name).toBe('Acme Analytics');
    expect(acme.markets?.some((m) => m.is_primary && m.location === 'US')).toBe(true);
    expect(Array.isArray(acme.aliases)).toBe(true);
    const one = await client.getBrands({ brandId: SEED_BRANDS.globex.id });
    expect(one.brands.map((b) => b.id)).toEqual([SEED_BRANDS.globex.id]);
  });

  it('markets: add, then remove; location and aliases', async () => {
    const brandId = SEED_BRANDS.acmeLabs.id;
    const market = await client.addMarket({ brandId, location: 'fr', marketName: 'France' });
    expect(market).toMatchObject({ brand_id: brandId, location: 'FR' });
    const removed = await client.removeMarket({ brandId, marketId: market.id });
    expect(removed).toBeTypeOf('object');

    const location = await client.setLocation({ brandId, country: 'UK', city: 'London' });
    expect(location.location).toBe('GB');
    expect(location.primary_market.is_primary).toBe(true);

    const aliases = await client.setAliases({ brandId, aliases: ['Acme Labs', 'AcmeLabs', 'AcmeLabs'] });
    expect(aliases.success).toBe(true);
    expect(aliases.aliases).toEqual(['Acme Labs', 'AcmeLabs']);
  });

  it('citations: every view', async () => {
    const list = await client.getCitationList({ brandId: ACME, limit: 3 });
    expect(list.citations).toHaveLength(3);
    expect(list.pagination.limit).toBe(3);

    const history = await client.getCitationHistory({ brandId: ACME, days: 7 });
    expect(history.brand_time_series.length).toBeGreaterThan(0);

    const queries = await client.getCitationQueries({ brandId: ACME });
    expect(queries.top_queries.length).toBeGreaterThan(0);

    const domain = list.citations[0]!.domain;
    const sources = await client.getCitationSources({ brandId: ACME, domain });
    expect(sources.domain).toBe(domain);
    expect(sources.pages.length).toBeGreaterThan(0);

    const feed = await client.getCitationFeed({ brandId: ACME, daysBack: 7 });
    expect(feed.brand.id).toBe(ACME);

    const heatmap = await client.getCitationHeatmap({ brandId: ACME });
    expect(heatmap.cells.length).toBeGreaterThan(0);
  });

  it('crawler: overview, live, pages, drawers, access, actions', async () => {
    const overview = await client.getCrawlerOverview({
      brandId: ACME,
      rangePreset: '7d',
      compareTo: 'previous_period',
    });
    expect(overview.range.days).toBe(7);
    expect(overview.hero.total_visits).toBeGreaterThan(0);

    const end = overview.range.end;
    const custom = await client.getCrawlerOverview({
      brandId: ACME,
      rangePreset: 'custom',
      startDate: overview.range.start,
      endDate: end,
    });
    expect(custom.range).toMatchObject({ start: overview.range.start, end });

    const live = await client.getCrawlerLive({ brandId: ACME, view: 'activity', limit: 5 });
    expect((live['items'] as unknown[]).length).toBeLessThanOrEqual(5);

    const pages = await client.getCrawlerPages({ brandId: ACME, lens: 'pages', limit: 2 });
    const page = (pages['items'] as Array<{ id: string }>)[0]!;
    const pageDetails = await client.getCrawlerPageDetails({ brandId: ACME, entityId: page.id });
    expect(pageDetails).toBeTypeOf('object');

    const paths = await client.getCrawlerPages({ brandId: ACME, lens: 'paths' });
    const path = (paths['items'] as Array<{ id: string }>)[0]!;
    expect(await client.getCrawlerPathDetails({ brandId: ACME, entityId: path.id })).toBeTypeOf('object');
    expect(await client.getCrawlerBotDetails({ brandId: ACME, entityId: 'GPTBot' })).toBeTypeOf('object');

    const access = await client.getCrawlerAccess({ brandId: ACME, rangePreset: '30d' });
    const finding = (access['findings'] as Array<{ id: string }>)[0]!;
    expect(await client.previewAccessFix({ brandId: ACME, findingId: finding.id })).toBeTypeOf('object');

    expect(await client.verificationPing({ brandId: ACME })).toBeTypeOf('object');
    const submitted = await client.submitToSearch({
      brandId: ACME,
      urls: ['https://www.acmeanalytics.com/', 'https://www.acmeanalytics.com/pricing'],
    });
    expect(submitted).toBeTypeOf('object');
    const status = await client.getSubmitToSearchStatus({ brandId: ACME });
    expect(['pending', 'success', 'failed']).toContain(status['status']);
    const sent = sim.requests.find((r) => r.path === '/crawler/submit-to-search');
    expect(sent?.body).toEqual({
      brand_id: ACME,
      urls: 'https://www.acmeanalytics.com/,https://www.acmeanalytics.com/pricing',
    });
  });

  it('AI Pages: set up, and not set up (config and usage null)', async () => {
    const acme = await client.getAiPages({ brandId: ACME });
    expect(acme.config?.enabled).toBe(true);
    expect(acme.usage?.percentage_used).toBeGreaterThan(0);
    const globex = await client.getAiPages({ brandId: SEED_BRANDS.globex.id });
    expect(globex.config).toBeNull();
    expect(globex.usage).toBeNull();
  });

  it('exercised every endpoint key but the /prism fallback', () => {
    const used = new Set(limiter.acquired.map((a) => a.endpoint));
    expect([...used].sort()).toEqual(
      [
        'addMarket',
        'getAiPages',
        'getBrands',
        'getCitations',
        'getContentIdeas',
        'getCrawlerAccess',
        'getCrawlerBotDetails',
        'getCrawlerLive',
        'getCrawlerOverview',
        'getCrawlerPageDetails',
        'getCrawlerPages',
        'getCrawlerPathDetails',
        'getSubmitToSearchStatus',
        'previewAccessFix',
        'refreshContentIdeas',
        'removeMarket',
        'setAliases',
        'setLocation',
        'submitToSearch',
        'verificationPing',
      ].sort(),
    );
  });
});

describe('documented errors', () => {
  it('a wrong key is UnauthorizedError, and the key is not in the message', async () => {
    const wrongKey = 'sk_live_WrongKeyWrongKeyWrongKeyWrongK';
    const bad = new ApiClient({ baseUrl: sim.url, apiKey: wrongKey, limiter: recordingLimiter() });
    try {
      const err = await failure(bad.getBrands());
      expect(err).toBeInstanceOf(UnauthorizedError);
      expect(err.message).not.toContain(wrongKey);
    } finally {
      await bad.close();
    }
  });

  it('an unknown brand filter is NotFoundError', async () => {
    const err = await failure(client.getBrands({ brandId: '00000000-0000-4000-8000-000000000000' }));
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it('a duplicate market is ConflictError "Market GB already exists"', async () => {
    const err = await failure(client.addMarket({ brandId: ACME, location: 'GB' }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toContain('Market GB already exists');
    expect(err.message).toContain('POST /get-brands/markets');
  });

  it('removing the primary market is a BadRequestError saying why', async () => {
    const { brands } = await client.getBrands({ brandId: ACME, include: ['markets'] });
    const primary = brands[0]!.markets!.find((m) => m.is_primary)!;
    const err = await failure(client.removeMarket({ brandId: ACME, marketId: primary.id }));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.serviceMessage).toMatch(/primary/i);
  });

  it('a viewer is ForbiddenError on brand writes, the ping and submit-to-search', async () => {
    const brandId = SEED_BRANDS.northwind.id;
    expect(await failure(client.addMarket({ brandId, location: 'IE' }))).toBeInstanceOf(ForbiddenError);
    expect(await failure(client.verificationPing({ brandId }))).toBeInstanceOf(ForbiddenError);
    expect(
      await failure(client.submitToSearch({ brandId, urls: ['https://northwind.example/'] })),
    ).toBeInstanceOf(ForbiddenError);
  });

  it('a plan without AI Pages is NoEntitlementError, with no /prism fallback', async () => {
    const before = sim.requests.length;
    const err = await failure(client.getAiPages({ brandId: SEED_BRANDS.initech.id }));
    expect(err).toBeInstanceOf(NoEntitlementError);
    expect(sim.requests.slice(before).map((r) => r.path)).toEqual(['/ai-pages']);
  });

  it('sources for a domain without citations is NotFoundError', async () => {
    const err = await failure(client.getCitationSources({ brandId: ACME, domain: 'no-such-domain.example' }));
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it('already_generating as a 409 body', async () => {
    const conflictSim = await startSimulator({ generationMs: 10_000, alreadyGeneratingAs: 'conflict' });
    const c = new ApiClient({
      baseUrl: conflictSim.url,
      apiKey: conflictSim.apiKey,
      limiter: recordingLimiter(),
    });
    try {
      expect((await c.refreshContentIdeas({ brandId: ACME })).status).toBe('generating');
      expect((await c.refreshContentIdeas({ brandId: ACME })).status).toBe('already_generating');
      expect(conflictSim.requests.map((r) => r.status)).toEqual([200, 409]);
    } finally {
      await c.close();
      await conflictSim.close();
    }
  });
});

describe('injected faults', () => {
  it('GET survives two 503s and a connection reset', async () => {
    sim.control.injectFault({ kind: 'status', status: 503, count: 2, path: '/get-brands' });
    sim.control.injectFault({ kind: 'reset-connection', count: 1, path: '/get-content-ideas' });
    const before = sim.requests.length;
    await client.getBrands();
    await client.getContentIdeas({ brandId: ACME, limit: 1 });
    expect(sim.requests.slice(before).map((r) => `${r.status} ${r.path}`)).toEqual([
      '503 /get-brands',
      '503 /get-brands',
      '200 /get-brands',
      '0 /get-content-ideas',
      '200 /get-content-ideas',
    ]);
  });

  it('POST is not retried after a 503', async () => {
    sim.control.injectFault({ kind: 'status', status: 503, count: 1, path: '/crawler/verification-ping' });
    const before = sim.requests.length;
    await failure(client.verificationPing({ brandId: ACME }));
    expect(sim.requests.slice(before)).toHaveLength(1);
  });

  it('POST is retried after a 429, and the limiter sees the Retry-After', async () => {
    sim.control.injectFault({
      kind: 'rate-limit',
      count: 1,
      retryAfterSec: 2,
      path: '/crawler/verification-ping',
    });
    const before = sim.requests.length;
    const observedBefore = limiter.observed.length;
    await client.verificationPing({ brandId: ACME });
    expect(sim.requests.slice(before).map((r) => r.status)).toEqual([429, 200]);
    const first = limiter.observed[observedBefore]!.observation;
    expect(first).toMatchObject({ status: 429, retryAfterMs: 2000 });
    expect(first.message).toMatch(/Rate limit exceeded/);
  });

  it('rate-limit headers reach the limiter', async () => {
    const observedBefore = limiter.observed.length;
    await client.getBrands();
    const o = limiter.observed[observedBefore]!.observation;
    expect(o.limit).toBe(10_000);
    expect(o.remaining).toBeTypeOf('number');
    expect(o.resetAtMs).toBeGreaterThan(Date.now() - 1000);
  });

  it('malformed JSON is InvalidResponseError', async () => {
    sim.control.injectFault({ kind: 'malformed-json', count: 1, path: '/get-brands' });
    expect(await failure(client.getBrands())).toBeInstanceOf(InvalidResponseError);
  });
});
