/**
 * Crawler analytics: ranges and comparison, a staged traffic drop, cursor paging,
 * filters, drawers, access findings and fix previews, ping and search submission.
 */
import { describe, expect, it } from 'vitest';
import { crawlerOverviewSchema } from '../../../src/api/schemas/index.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { type AnyJson, call, get, sim } from './sim-test-helpers.js';

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

describe('one story: crawler totals equal the sum of their parts', () => {
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  /** Every row of a cursor-paged listing. */
  async function allItems(s: Sim, path: string, query: Record<string, string>): Promise<AnyJson[]> {
    const items: AnyJson[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 200; guard++) {
      const body = (await get(s, path, { brand_id: acme, limit: 100, ...query, cursor })).body;
      items.push(...body.items);
      cursor = body.meta.next_cursor ?? undefined;
      if (!cursor) return items;
    }
    throw new Error('paging did not end');
  }

  it('for any range, the overview, the pages, paths and crawlers lenses and the drawers add up', async () => {
    const s = await sim();
    for (const range_preset of ['24h', '7d', '30d']) {
      const o = await overview(s, { range_preset });
      const total = o.hero.total_visits;
      expect(sum(o.chart.series.map((p) => p.count)), range_preset).toBe(total);
      expect(sum(o.chart.distribution.map((d) => d.count)), range_preset).toBe(total);
      const pages = await allItems(s, '/crawler/pages', { range_preset });
      expect(sum(pages.map((p) => p.visits)), range_preset).toBe(total);
      const paths = await allItems(s, '/crawler/pages', { range_preset, lens: 'paths' });
      expect(sum(paths.map((p) => p.visits)), range_preset).toBe(total);
      const bots = await allItems(s, '/crawler/pages', { range_preset, lens: 'bots' });
      expect(sum(bots.map((b) => b.visits)), range_preset).toBe(total);
      // The overview's top pages are the pages tab's top rows, visit for visit.
      for (const top of o.top_pages)
        expect(pages.find((p) => p.url === top.url)?.visits, top.url).toBe(top.count);

      const page = pages[0];
      const drawer = (
        await get(s, '/crawler/page-details', { brand_id: acme, entity_id: page.id, range_preset })
      ).body;
      expect(drawer.traffic.total_visits).toBe(page.visits);
      expect(sum(drawer.traffic.series.map((p: AnyJson) => p.count))).toBe(page.visits);
      expect(sum(drawer.traffic.by_crawler.map((c: AnyJson) => c.visits))).toBe(page.visits);
      const bot = bots[0];
      const botDrawer = (
        await get(s, '/crawler/bot-details', { brand_id: acme, entity_id: bot.id, range_preset })
      ).body;
      expect(botDrawer.traffic.total_visits).toBe(bot.visits);
      const path = paths[0];
      const pathDrawer = (
        await get(s, '/crawler/path-details', { brand_id: acme, entity_id: path.path, range_preset })
      ).body;
      expect(pathDrawer.verdict.headline).toContain(`${path.visits.toLocaleString('en-US')} visits`);
    }
  });

  it('the live stream is exactly the visits the other tabs count, page by page', async () => {
    const s = await sim();
    const today = await overview(s, { range_preset: '24h' });
    const visits = await allItems(s, '/crawler/live', { range_preset: '24h' });
    expect(visits).toHaveLength(today.hero.total_visits);
    const live = (await get(s, '/crawler/live', { brand_id: acme, range_preset: '24h' })).body;
    expect(live.summary.total_visits).toBe(today.hero.total_visits);
    const livePages = await allItems(s, '/crawler/live', { range_preset: '24h', view: 'pages' });
    const pages = await allItems(s, '/crawler/pages', { range_preset: '24h' });
    for (const p of pages.filter((row) => row.visits > 0))
      expect(livePages.find((l) => l.url === p.url)?.visits, p.url).toBe(p.visits);
    const sessions = await allItems(s, '/crawler/live', { range_preset: '24h', view: 'sessions' });
    expect(sum(sessions.map((x) => x.requests))).toBe(today.hero.total_visits);
    // A page's last crawl is its latest visit in the stream.
    const home = pages.find((p) => p.path === '/');
    const latest = visits
      .filter((v) => v.url === home.url)
      .map((v) => v.visited_at)
      .sort()
      .at(-1);
    expect(home.last_crawled_at).toBe(latest);
  });

  it('the crawlers robots.txt disallows fetch only robots.txt, a page of its own', async () => {
    const s = await sim();
    const visits = await allItems(s, '/crawler/live', { range_preset: '24h' });
    const ccbot = visits.filter((v) => v.crawler === 'CCBot');
    expect(ccbot.length).toBeGreaterThan(0);
    expect(new Set(ccbot.map((v) => v.path))).toEqual(new Set(['/robots.txt']));
    const pages = await allItems(s, '/crawler/pages', { range_preset: '24h' });
    expect(pages.find((p) => p.path === '/robots.txt')?.by_crawler).toHaveProperty('CCBot', ccbot.length);
  });

  it('a staged drop covers the whole days the crawler alert compares', async () => {
    const s = await sim();
    const end = new Date(s.clock.now() - DAY).toISOString().slice(0, 10);
    const start = new Date(s.clock.now() - 7 * DAY).toISOString().slice(0, 10);
    const lastWeek = { range_preset: 'custom', start_date: start, end_date: end };
    const before = await overview(s, lastWeek);
    s.control.setCrawlerTraffic(acme, { factor: 0.4 });
    const after = await overview(s, lastWeek);
    // Every day of the alert's week is scaled, none of the week before it.
    expect(after.hero.total_visits / before.hero.total_visits).toBeCloseTo(0.4, 1);
    expect(after).toHaveProperty(
      'previous_period.total_visits',
      (before as AnyJson).previous_period.total_visits,
    );
  });
});
