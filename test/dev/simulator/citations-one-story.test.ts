/**
 * The citation views of one brand on one day tell one story, day after day, whether the
 * clock moves with each research run (the tests' model) or stays put (the demo's
 * `:advance`): the list, the feed, the history, the sources, the queries and the heatmap
 * agree with each other, totals equal the sum of their parts, and a page the feed reports
 * lost is not in the list while a page it reports new is. So the demo never shows a
 * digest losing a page that `citations` still lists, or a total its parts do not make.
 */
import { describe, expect, it } from 'vitest';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { DAY_MS } from '../../../src/utc-days.js';
import { type AnyJson, get, sim } from './sim-test-helpers.js';

type Sim = Awaited<ReturnType<typeof sim>>;

async function view(s: Sim, brandId: string, query: Record<string, string | number>): Promise<AnyJson> {
  const res = await get(s, '/get-citations', { brand_id: brandId, limit: 500, ...query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Everything one day says about one brand, checked against itself. */
async function expectOneStory(s: Sim, brandId: string): Promise<void> {
  const list = await view(s, brandId, { view: 'list' });
  const history = await view(s, brandId, { view: 'history', days: 7 });
  const heatmap = await view(s, brandId, { view: 'heatmap' });
  const queries = await view(s, brandId, { view: 'queries' });
  const cited = new Map<string, AnyJson>(list.citations.map((c: AnyJson) => [c.url, c]));
  const latest = history.brand_time_series.at(-1);

  // Cited pages: the list's total is its rows, and the feed's current total whatever its window.
  expect(list.pagination.total).toBe(list.citations.length);
  for (const daysBack of [1, 3, 7]) {
    const feed = await view(s, brandId, { view: 'feed', days_back: daysBack });
    expect(feed.total_current).toBe(list.pagination.total);
    expect(feed.current_snapshot_date).toBe(latest.date);
    const of = (t: string) => feed.events.filter((e: AnyJson) => e.event_type === t);
    // The change adds up: before + new − lost = now.
    expect(feed.total_previous + of('new').length - of('lost').length).toBe(feed.total_current);
    for (const e of of('lost')) expect(cited.has(e.url), `lost yet listed: ${e.url}`).toBe(false);
    for (const e of of('new')) {
      expect(cited.has(e.url), `new yet not listed: ${e.url}`).toBe(true);
      expect(e.appearance_count).toBe(cited.get(e.url).metrics.appearances);
    }
    for (const e of [...of('sentiment_changed'), ...of('competitor_appeared')])
      expect(cited.has(e.url)).toBe(true);
  }

  // Citations: the day's total is the sum of each cited page's appearances.
  expect(latest.total_citations).toBe(sum(list.citations.map((c: AnyJson) => c.metrics.appearances)));
  // Sources: the distinct domains of the cited pages.
  expect(latest.unique_sources).toBe(new Set(list.citations.map((c: AnyJson) => c.domain)).size);
  expect(history.date_range.end).toBe(latest.date);
  for (const c of list.citations) expect(c.date).toBe(latest.date);

  // Brand mentions and competitor mentions count the same thing, and the heatmap's cells
  // are that count on each domain: never more than the day's total.
  const cells = (brand: string) => heatmap.cells.filter((c: AnyJson) => c.brand === brand);
  expect(sum(cells(heatmap.your_brand).map((c: AnyJson) => c.mention_count))).toBeLessThanOrEqual(
    latest.brand_mentions,
  );
  for (const [name, series] of Object.entries<AnyJson[]>(history.competitor_time_series)) {
    expect(series.at(-1).date).toBe(latest.date);
    expect(sum(cells(name).map((c: AnyJson) => c.mention_count))).toBeLessThanOrEqual(series.at(-1).mentions);
  }
  for (const c of heatmap.cells) expect(c.is_present).toBe(c.mention_count > 0);

  // A domain's sources view: its pages are the list's pages on it, its total their appearances.
  const domain = list.citations[0]?.domain;
  if (domain) {
    const sources = await view(s, brandId, { view: 'sources', domain });
    const onDomain = list.citations.filter((c: AnyJson) => c.domain === domain);
    expect(sources.unique_pages).toBe(onDomain.length);
    expect(sources.total_citations).toBe(sum(onDomain.map((c: AnyJson) => c.metrics.appearances)));
    expect(sum(sources.pages.map((p: AnyJson) => p.appearance_count))).toBe(sources.total_citations);
    expect(sources.last_seen).toBe(latest.date);
  }

  // Queries: each cluster's total is the sum of its queries' pages.
  const byQuery = new Map<string, number>(
    [...queries.top_queries, ...queries.gap_queries].map((q: AnyJson) => [q.query, q.citations_found]),
  );
  for (const cluster of queries.clusters) {
    const known = cluster.queries.filter((q: string) => byQuery.has(q));
    if (known.length === cluster.queries.length) {
      expect(cluster.total_citations).toBe(sum(known.map((q: string) => byQuery.get(q)!)));
    }
    expect(cluster.brand_appears_in).toBeLessThanOrEqual(cluster.queries.length);
  }
}

describe('the citation views tell one story each day', () => {
  it('when the clock moves a day with each research run', async () => {
    const s = await sim();
    for (let day = 0; day < 4; day += 1) {
      for (const brand of Object.values(SEED_BRANDS)) await expectOneStory(s, brand.id);
      s.clock.advance(DAY_MS);
      s.control.advanceSnapshot();
    }
  });

  it('when the data moves on and the clock does not (the demo’s :advance), a date keeps its data', async () => {
    const s = await sim();
    const acme = SEED_BRANDS.acme.id;
    const before = await view(s, acme, { view: 'history', days: 30 });
    s.control.advanceSnapshot();
    s.control.advanceSnapshot();
    await expectOneStory(s, acme);
    const after = await view(s, acme, { view: 'history', days: 30 });
    // The days already published keep their figures: a new run adds a day, it does not
    // rewrite the day a reader saw a minute ago under the same date.
    const byDate = new Map(after.brand_time_series.map((p: AnyJson) => [p.date, p]));
    for (const p of before.brand_time_series) {
      if (byDate.has(p.date)) expect(byDate.get(p.date)).toEqual(p);
    }
    expect(after.brand_time_series.at(-1).date > before.brand_time_series.at(-1).date).toBe(true);
  });
});
