/**
 * The /__control endpoint over HTTP, as the demo and out-of-process tests use it.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
type Sim = Awaited<ReturnType<typeof sim>>;
const control = (s: Sim, method: string, path: string, body?: unknown) =>
  call(s, method, `/__control${path}`, { auth: false, ...(body === undefined ? {} : { body }) });

describe('/__control', () => {
  it('GET /state describes the simulator; control calls are not recorded as API requests', async () => {
    const s = await sim();
    const res = await control(s, 'GET', '/state');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      snapshot_index: s.control.snapshotIndex(),
      current_snapshot_date: '2025-03-14',
      plan: 'scale',
      limits: { perMinute: 60, burst: 100, perDay: 10_000, endpointPerMinute: null, windowMs: 60_000 },
      faults: [],
      request_count: 0,
    });
    expect(res.body.brands).toHaveLength(5);
    expect(s.requests).toEqual([]);
  });

  it('POST /advance with and without changes', async () => {
    const s = await sim();
    const index = s.control.snapshotIndex();
    const scripted = await control(s, 'POST', '/advance');
    expect(scripted.body).toMatchObject({ snapshot_index: index + 1 });
    const url = s.control.citationUrls(acme)[0]!;
    const explicit = await control(s, 'POST', '/advance', { brandId: 'acme', lose: [url] });
    expect(explicit.body.snapshot_index).toBe(index + 2);
    expect(s.control.citationUrls(acme)).not.toContain(url);
    const urls = await control(s, 'GET', `/citation-urls?brand_id=${acme}`);
    expect(urls.body.urls).toEqual(s.control.citationUrls(acme));
    expect((await control(s, 'POST', '/advance', { lose: 'oops' })).status).toBe(400);
  });

  it('POST /ai-pages-usage changes what GET /ai-pages reports', async () => {
    const s = await sim();
    const res = await control(s, 'POST', '/ai-pages-usage', {
      brandId: acme,
      percentageUsed: 91,
      resetDate: '2025-04-01T00:00:00.000Z',
    });
    expect(res.status).toBe(200);
    const record = (await get(s, '/ai-pages', { brand_id: acme })).body;
    expect(record.usage).toMatchObject({
      percentage_used: 91,
      requests_this_month: 91_000,
      reset_date: '2025-04-01T00:00:00.000Z',
    });
    await control(s, 'POST', '/ai-pages-usage', { brand_id: 'acme', enabled: false });
    expect((await get(s, '/ai-pages', { brand_id: acme })).body.config.enabled).toBe(false);
    // A brand that was not set up becomes set up.
    await control(s, 'POST', '/ai-pages-usage', {
      brandId: 'globex',
      requestsThisMonth: 2_500,
      requestsLimit: 10_000,
    });
    const globex = (await get(s, '/ai-pages', { brand_id: SEED_BRANDS.globex.id })).body;
    expect(globex.usage).toMatchObject({
      requests_this_month: 2_500,
      requests_limit: 10_000,
      percentage_used: 25,
    });
    expect((await control(s, 'POST', '/ai-pages-usage', { brandId: acme, percentageUsed: 140 })).status).toBe(
      400,
    );
    expect((await control(s, 'POST', '/ai-pages-usage', { percentageUsed: 10 })).status).toBe(400);
  });

  it('POST /crawler-traffic stages a drop', async () => {
    const s = await sim();
    const res = await control(s, 'POST', '/crawler-traffic', { brandId: acme, factor: 0.4, days: 7 });
    expect(res.body).toMatchObject({ ok: true, crawler_traffic: { factor: 0.4 } });
    const overview = await get(s, '/crawler/overview', {
      brand_id: acme,
      range_preset: '7d',
      compare_to: 'previous_period',
    });
    expect(overview.body.hero.total_visits_change).toBeLessThan(-50);
    expect(
      (await control(s, 'POST', '/crawler-traffic', { brandId: acme, factor: 1, crawlers: ['NoSuchBot'] }))
        .status,
    ).toBe(400);
  });

  it('POST /crawler-rhythm makes a seasonal site: weekends the given share below weekdays', async () => {
    const s = await sim();
    const weekendShare = async () => {
      const o = await get(s, '/crawler/overview', { brand_id: acme, range_preset: '30d' });
      const series = o.body.chart.series as Array<{ date: string; count: number }>;
      const mean = (weekend: boolean) => {
        const days = series.filter(
          (p) => [0, 6].includes(new Date(`${p.date}T00:00:00Z`).getUTCDay()) === weekend,
        );
        return days.reduce((a, p) => a + p.count, 0) / days.length;
      };
      return mean(true) / mean(false);
    };
    const mild = await weekendShare();
    expect(mild).toBeGreaterThan(0.7);
    const res = await control(s, 'POST', '/crawler-rhythm', { brandId: acme, weekendDip: 0.45 });
    expect(res.body).toEqual({ ok: true, brand_id: acme, weekend_dip: 0.45 });
    const seasonal = await weekendShare();
    expect(seasonal).toBeGreaterThan(0.45);
    expect(seasonal).toBeLessThan(0.65);
    expect((await control(s, 'POST', '/crawler-rhythm', { brandId: acme, weekendDip: 2 })).status).toBe(400);
    await control(s, 'POST', '/crawler-rhythm', { brandId: acme, weekendDip: null });
    expect(await weekendShare()).toBeCloseTo(mild, 5);
  });

  it('POST and DELETE /faults', async () => {
    const s = await sim();
    const added = await control(s, 'POST', '/faults', { kind: 'status', status: 502, count: 2 });
    expect(added.body.faults).toEqual([{ kind: 'status', status: 502, count: 2, remaining: 2 }]);
    expect((await get(s, '/get-brands')).status).toBe(502);
    await control(s, 'DELETE', '/faults');
    expect((await get(s, '/get-brands')).status).toBe(200);
    expect((await control(s, 'POST', '/faults', { kind: 'status' })).status).toBe(400);
  });

  it('POST /limits and POST /reset', async () => {
    const s = await sim();
    const limits = await control(s, 'POST', '/limits', { burst: 1, perDay: null });
    expect(limits.body.limits).toMatchObject({ burst: 1, perDay: null });
    await get(s, '/get-brands');
    expect((await get(s, '/get-brands')).status).toBe(429);
    await call(s, 'PUT', '/get-brands/aliases', { body: { brand_id: acme, aliases: ['Only'] } });
    s.control.advanceSnapshot();

    const reset = await control(s, 'POST', '/reset');
    expect(reset.status).toBe(200);
    expect(s.requests).toEqual([]);
    const state = (await control(s, 'GET', '/state')).body;
    expect(state.limits.burst).toBe(100);
    const brand = (await get(s, '/get-brands', { brand_id: acme, include: 'aliases' })).body.brands[0];
    expect(brand.aliases).toEqual(['Acme', 'AcmeAnalytics', 'Acme Analytics Inc.']);
    expect(state.snapshot_index).toBe(reset.body.snapshot_index);
  });

  it('GET /requests returns what crossed the wire', async () => {
    const s = await sim();
    await call(s, 'PUT', '/get-brands/aliases', {
      body: { brand_id: acme, aliases: ['A'] },
      query: { trace: 'x' },
    });
    const res = await control(s, 'GET', '/requests');
    expect(res.body.requests).toEqual([
      {
        at: s.clock.now(),
        method: 'PUT',
        path: '/get-brands/aliases',
        query: { trace: 'x' },
        body: { brand_id: acme, aliases: ['A'] },
        status: 200,
      },
    ]);
  });

  it('unknown control routes are 404', async () => {
    const s = await sim();
    expect((await control(s, 'GET', '/nope')).status).toBe(404);
  });
});
