/**
 * Crawler analytics: ranges and comparison, a staged traffic drop, cursor paging,
 * filters, drawers, access findings and fix previews, ping and search submission.
 */
import { describe, expect, it } from 'vitest';
import { crawlerOverviewSchema } from '../../../src/api/schemas/index.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { call, get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
const DAY = 86_400_000;
type Sim = Awaited<ReturnType<typeof sim>>;

const overview = async (s: Sim, query: Record<string, string> = {}) =>
  crawlerOverviewSchema.parse(
    (await get(s, '/crawler/overview', { brand_id: acme, compare_to: 'previous_period', ...query })).body,
  );

describe('overview', () => {
  it('reports visits for the range with a percentage change against the previous period', async () => {
    const s = await sim();
    const week = await overview(s, { range_preset: '7d' });
    expect(week.range).toMatchObject({
      start: '2025-03-08',
      end: '2025-03-14',
      days: 7,
      compare_to: 'previous_period',
    });
    expect(week.hero.total_visits).toBeGreaterThan(1_000);
    // Seeded traffic is steady: week over week within a few percent.
    expect(Math.abs(week.hero.total_visits_change!)).toBeLessThan(15);
    expect(week.hero.avg_daily_visits).toBeCloseTo(week.hero.total_visits / 7, 1);
    const summary = week.chart.bot_type_summary;
    expect(summary.training + summary.search + summary.interaction + summary.agent + summary.other).toBe(
      week.hero.total_visits,
    );
    expect(week.chart.distribution.map((d) => d.crawler)).toEqual(
      expect.arrayContaining(['GPTBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'OAI-SearchBot']),
    );
    expect(week.hero.top_crawler).toBe(week.chart.distribution[0]!.crawler);
    expect(week.top_pages.length).toBeGreaterThan(0);
    expect(week.recent_preview.length).toBe(10);
    for (const v of week.recent_preview) expect(Date.parse(v.visited_at)).toBeLessThanOrEqual(s.clock.now());
  });

  it('without compare_to the change is null', async () => {
    const s = await sim();
    const res = crawlerOverviewSchema.parse((await get(s, '/crawler/overview', { brand_id: acme })).body);
    expect(res.range.range_preset).toBe('30d');
    expect(res.hero.total_visits_change).toBeNull();
  });

  it('a staged drop shows as a fall of about the factor, names the crawlers, and can be undone', async () => {
    const s = await sim();
    s.control.setCrawlerTraffic(acme, { factor: 0.5 });
    const dropped = await overview(s, { range_preset: '7d' });
    expect(dropped.hero.total_visits_change!).toBeLessThan(-40);
    expect(dropped.hero.total_visits_change!).toBeGreaterThan(-60);
    expect(dropped).toHaveProperty('previous_period.distribution');

    s.control.setCrawlerTraffic(acme, { factor: 1 });
    const restored = await overview(s, { range_preset: '7d' });
    expect(Math.abs(restored.hero.total_visits_change!)).toBeLessThan(15);
  });

  it('a drop limited to some crawlers only moves those crawlers', async () => {
    const s = await sim();
    const before = await overview(s, { range_preset: '7d' });
    s.control.setCrawlerTraffic(acme, { factor: 0, days: 7, crawlers: ['GPTBot', 'claudebot'] });
    const after = await overview(s, { range_preset: '7d' });
    const count = (o: typeof after, name: string) =>
      o.chart.distribution.find((d) => d.crawler === name)?.count ?? 0;
    expect(count(after, 'GPTBot')).toBe(0);
    expect(count(after, 'ClaudeBot')).toBe(0);
    expect(count(after, 'PerplexityBot')).toBe(count(before, 'PerplexityBot'));
  });

  it('about 120 days of history exist; earlier ranges are empty', async () => {
    const s = await sim();
    const old = await overview(s, {
      range_preset: 'custom',
      start_date: '2024-10-01',
      end_date: '2024-10-31',
    });
    expect(old.hero.total_visits).toBe(0);
    const tracked = await overview(s, {
      range_preset: 'custom',
      start_date: '2024-11-20',
      end_date: '2024-11-30',
    });
    expect(tracked.hero.total_visits).toBeGreaterThan(0);
  });

  it('the legacy /get-crawler route answers like the overview', async () => {
    const s = await sim();
    const legacy = await get(s, '/get-crawler', { brand_id: acme });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual((await get(s, '/crawler/overview', { brand_id: acme })).body);
  });
});

describe('live', () => {
  it('pages through the activity stream with cursors until next_cursor is null', async () => {
    const s = await sim();
    const seen: string[] = [];
    let cursor: string | undefined;
    let total = 0;
    for (let guard = 0; guard < 100; guard++) {
      const res = await get(s, '/crawler/live', { brand_id: acme, limit: 100, intent: 'search', cursor });
      total = res.body.meta.total;
      seen.push(...res.body.items.map((e: { id: string }) => e.id));
      expect(res.body.items.every((e: { intent: string }) => e.intent === 'search')).toBe(true);
      cursor = res.body.meta.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('filters by platform, http_status and search', async () => {
    const s = await sim();
    const openai = (await get(s, '/crawler/live', { brand_id: acme, platform: 'openai', limit: 100 })).body;
    expect(openai.items.every((e: { platform: string }) => e.platform === 'openai')).toBe(true);
    const blocked = (await get(s, '/crawler/live', { brand_id: acme, http_status: '403', limit: 100 })).body;
    // Acme's firewall answers Bytespider with 403.
    expect(blocked.items.length).toBeGreaterThan(0);
    expect(blocked.items.every((e: { status_code: number }) => e.status_code === 403)).toBe(true);
    const pricing = (await get(s, '/crawler/live', { brand_id: acme, search: 'pricing', view: 'pages' }))
      .body;
    expect(pricing.items.every((p: { url: string }) => p.url.includes('pricing'))).toBe(true);
  });
});

describe('pages and drawers', () => {
  it('status filter keeps one status; bots lens lists crawlers', async () => {
    const s = await sim();
    for (const status of ['converting', 'cited', 'crawled', 'healthy', 'cold']) {
      const res = (await get(s, '/crawler/pages', { brand_id: acme, status, limit: 100 })).body;
      expect(res.items.length, status).toBeGreaterThan(0);
      expect(res.items.every((p: { status: string }) => p.status === status)).toBe(true);
    }
    const bots = (await get(s, '/crawler/pages', { brand_id: acme, lens: 'bots', limit: 100 })).body;
    expect(bots.items.map((b: { name: string }) => b.name)).toContain('Bytespider');
  });

  it('pages cursor paging covers every page once', async () => {
    const s = await sim();
    const first = (await get(s, '/crawler/pages', { brand_id: acme, limit: 10 })).body;
    const second = (
      await get(s, '/crawler/pages', { brand_id: acme, limit: 10, cursor: first.meta.next_cursor })
    ).body;
    // Acme's 30 pages, and robots.txt: the crawlers it disallows fetch nothing else.
    expect(first.meta.total).toBe(31);
    expect(second.items[0].id).not.toBe(first.items[0].id);
  });

  it('drawers accept ids, paths and names', async () => {
    const s = await sim();
    const page = await get(s, '/crawler/page-details', {
      brand_id: acme,
      kind: 'page',
      entity_id: '/pricing',
    });
    expect(page.body).toMatchObject({
      kind: 'page',
      page: { path: '/pricing' },
      verdict: expect.any(Object),
    });
    const byId = await get(s, '/crawler/page-details', { brand_id: acme, entity_id: page.body.entity_id });
    expect(byId.body.page).toEqual(page.body.page);
    const bot = await get(s, '/crawler/bot-details', { brand_id: acme, entity_id: 'Bytespider' });
    expect(bot.body.verdict.status).toBe('blocked');
    const path = await get(s, '/crawler/path-details', { brand_id: acme, entity_id: '/docs' });
    expect(path.body.top_pages.length).toBeGreaterThan(0);
  });
});

describe('access, preview-fix, ping and submissions', () => {
  it('every finding can be previewed, never applied', async () => {
    const s = await sim();
    const access = (await get(s, '/crawler/access', { brand_id: SEED_BRANDS.globex.id })).body;
    expect(access.findings.length).toBeGreaterThan(0);
    expect(access.robots.content).toContain('User-agent: GPTBot');
    expect(access.llms.present).toBe(false);
    expect(access.bot_access.find((b: { crawler: string }) => b.crawler === 'PerplexityBot').allowed).toBe(
      false,
    );
    for (const f of access.findings) {
      const preview = await call(s, 'POST', '/crawler/access/preview-fix', {
        body: { brand_id: SEED_BRANDS.globex.id, finding_id: f.id },
      });
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({ applied: false, preview: { diff: expect.any(Array) } });
    }
    // Findings belong to their brand.
    const other = await call(s, 'POST', '/crawler/access/preview-fix', {
      body: { brand_id: acme, finding_id: access.findings[0].id },
    });
    expect(other.status).toBe(404);
  });

  it('a submission is pending, then succeeds after a while', async () => {
    const s = await sim({ generationMs: 1_000 });
    const urls = 'https://www.acmeanalytics.com/pricing, https://www.acmeanalytics.com/blog/new-post';
    const submitted = await call(s, 'POST', '/crawler/submit-to-search', { body: { brand_id: acme, urls } });
    expect(submitted.body).toMatchObject({ status: 'pending', urls_submitted: 2 });
    const pending = (await get(s, '/crawler/submit-to-search/status', { brand_id: acme })).body;
    expect(pending).toMatchObject({
      status: 'pending',
      last_submission: { id: submitted.body.submission_id },
    });
    s.clock.advance(1_000);
    const done = (await get(s, '/crawler/submit-to-search/status', { brand_id: acme })).body;
    expect(done.status).toBe('success');
    expect(done.summary.total_submissions).toBe(2);
  });

  it('a submission of URLs on another host fails', async () => {
    const s = await sim({ generationMs: 10 });
    await call(s, 'POST', '/crawler/submit-to-search', {
      body: { brand_id: acme, urls: 'https://elsewhere.example/x' },
    });
    s.clock.advance(10);
    const status = (await get(s, '/crawler/submit-to-search/status', { brand_id: acme })).body;
    expect(status.status).toBe('failed');
    expect(status.last_submission.error).toMatch(/acmeanalytics\.com/);
  });

  it('the verification ping reports where it was sent', async () => {
    const s = await sim();
    const ping = await call(s, 'POST', '/crawler/verification-ping', { body: { brand_id: acme } });
    expect(ping.body).toMatchObject({
      status: 'sent',
      target_url: expect.stringMatching(/^https:\/\/www\.acmeanalytics\.com\//),
    });
  });

  it('the clock moving on moves the ranges with it', async () => {
    const s = await sim();
    s.clock.advance(DAY);
    expect((await overview(s, { range_preset: '24h' })).range.start).toBe('2025-03-15');
  });
});
