/**
 * Citation snapshots and the feed: advanceSnapshot's scripted and explicit changes, how
 * long a change stays visible, and the list filters.
 */
import { describe, expect, it } from 'vitest';
import { citationFeedResponseSchema, type FeedEvent } from '../../../src/api/schemas/index.js';
import { SEED_BRANDS } from '../../../src/dev/simulator/index.js';
import { get, sim } from './sim-test-helpers.js';

const acme = SEED_BRANDS.acme.id;
type Sim = Awaited<ReturnType<typeof sim>>;

async function feed(s: Sim, daysBack: number, brandId: string = acme) {
  const res = await get(s, '/get-citations', {
    brand_id: brandId,
    view: 'feed',
    days_back: daysBack,
    limit: 500,
  });
  return citationFeedResponseSchema.parse(res.body);
}

const eventsFor = (events: FeedEvent[], url: string) =>
  events.filter((e) => e.url === url).map((e) => e.event_type);

describe('advanceSnapshot without changes (scripted)', () => {
  it('produces lost, new, a sentiment drop of 20+ and a competitor appearing', async () => {
    const s = await sim();
    const before = s.control.citationUrls(acme);
    const index = s.control.snapshotIndex();
    s.control.advanceSnapshot();
    expect(s.control.snapshotIndex()).toBe(index + 1);
    const after = s.control.citationUrls(acme);

    const f = await feed(s, 1);
    const of = (t: string) => f.events.filter((e) => e.event_type === t);
    expect(
      of('lost')
        .map((e) => e.url)
        .sort(),
    ).toEqual(before.filter((u) => !after.includes(u)).sort());
    expect(
      of('new')
        .map((e) => e.url)
        .sort(),
    ).toEqual(after.filter((u) => !before.includes(u)).sort());
    expect(of('lost').length).toBeGreaterThanOrEqual(1);
    expect(of('new').length).toBeGreaterThanOrEqual(1);
    const drops = of('sentiment_changed').filter((e) => e.prev_sentiment! - e.sentiment! >= 20);
    expect(drops.length).toBeGreaterThanOrEqual(1);
    expect(of('competitor_appeared').length).toBeGreaterThanOrEqual(1);
    expect(of('competitor_appeared')[0]!.competitor).toEqual(expect.any(String));

    for (const e of of('new')) {
      expect(e).toMatchObject({ mentions_brand: expect.any(Boolean), appearance_count: expect.any(Number) });
      expect(e.prompts!.length).toBeGreaterThan(0);
    }
    for (const e of f.events) {
      expect(e.domain).toBe(new URL(e.url).hostname);
      // The clock stayed on the 14th: the run is published for the next day.
      expect(e.timestamp.startsWith('2025-03-15')).toBe(true);
    }
  });

  it('every brand gets a new snapshot', async () => {
    const s = await sim();
    const globex = SEED_BRANDS.globex.id;
    const before = s.control.citationUrls(globex);
    s.control.advanceSnapshot();
    expect(s.control.citationUrls(globex)).not.toEqual(before);
  });

  it('dates: the current snapshot is today, the previous ones a day apart', async () => {
    const s = await sim();
    expect((await feed(s, 3)).current_snapshot_date).toBe('2025-03-14');
    s.clock.advance(86_400_000);
    s.control.advanceSnapshot();
    const f = await feed(s, 3);
    expect(f.current_snapshot_date).toBe('2025-03-15');
    expect(f.previous_snapshot_date).toBe('2025-03-12');
    // A day passing with no run moves every date along, the latest snapshot staying today's.
    s.clock.advance(86_400_000);
    expect((await feed(s, 3)).current_snapshot_date).toBe('2025-03-16');
  });

  it('dates: a run published before the clock reaches its day takes the next day, and earlier days keep theirs', async () => {
    const s = await sim();
    s.control.advanceSnapshot();
    s.control.advanceSnapshot();
    const f = await feed(s, 3);
    expect(f.current_snapshot_date).toBe('2025-03-16');
    expect(f.previous_snapshot_date).toBe('2025-03-13');
  });
});

describe('advanceSnapshot with explicit changes', () => {
  it('lost → found → lost is visible with days_back=1 each time', async () => {
    const s = await sim();
    const url = s.control.citationUrls(acme)[0]!;

    s.control.advanceSnapshot({ lose: [url] });
    expect(eventsFor((await feed(s, 1)).events, url)).toEqual(['lost']);
    expect(s.control.citationUrls(acme)).not.toContain(url);

    s.control.advanceSnapshot({ add: [url] });
    expect(eventsFor((await feed(s, 1)).events, url)).toEqual(['new']);

    s.control.advanceSnapshot({ lose: [url] });
    expect(eventsFor((await feed(s, 1)).events, url)).toEqual(['lost']);

    // Compared with two snapshots ago the URL is gone at both ends: no event.
    expect(eventsFor((await feed(s, 2)).events, url)).toEqual([]);
    // Compared with before the first loss, it is simply lost.
    expect(eventsFor((await feed(s, 3)).events, url)).toEqual(['lost']);
  });

  it('one loss stays visible, with the same timestamp, in the 7 daily feeds of days_back=7', async () => {
    const s = await sim();
    const url = s.control.citationUrls(acme)[3]!;
    s.control.advanceSnapshot({ lose: [url] });
    const stamps: string[] = [];
    for (let day = 0; day < 9; day++) {
      const events = (await feed(s, 7)).events.filter((e) => e.url === url);
      if (day < 7) {
        expect(
          events.map((e) => e.event_type),
          `day ${day}`,
        ).toEqual(['lost']);
        stamps.push(events[0]!.timestamp);
      } else {
        expect(events, `day ${day}`).toEqual([]);
      }
      // A daily research run: the clock moves a day and a new snapshot lands.
      s.clock.advance(86_400_000);
      s.control.advanceSnapshot({});
    }
    expect(new Set(stamps).size).toBe(1);
  });

  it('sentiment and competitor changes, with a made-up URL added', async () => {
    const s = await sim();
    const [first, second] = s.control.citationUrls(acme);
    s.control.advanceSnapshot({
      add: ['https://www.example-reviews.com/best/product-analytics-2025'],
      sentiment: [{ url: first!, to: 5 }],
      competitorAppeared: [{ url: second!, competitor: 'Contoso Insights' }],
    });
    const f = await feed(s, 1);
    expect(f.events).toContainEqual(
      expect.objectContaining({
        event_type: 'new',
        url: 'https://www.example-reviews.com/best/product-analytics-2025',
        domain: 'www.example-reviews.com',
      }),
    );
    expect(f.events).toContainEqual(
      expect.objectContaining({ event_type: 'sentiment_changed', url: first, sentiment: 5 }),
    );
    expect(f.events).toContainEqual(
      expect.objectContaining({
        event_type: 'competitor_appeared',
        url: second,
        competitor: 'Contoso Insights',
      }),
    );
  });

  it('applies to the named brand only', async () => {
    const s = await sim();
    const labs = SEED_BRANDS.acmeLabs.id;
    const url = s.control.citationUrls(labs)[0]!;
    s.control.advanceSnapshot({ brandId: labs, lose: [url] });
    expect(eventsFor((await feed(s, 1, labs)).events, url)).toEqual(['lost']);
    expect((await feed(s, 1)).events).toEqual([]);
  });

  it('rejects a sentiment change for a URL that is not cited, leaving the snapshots alone', async () => {
    const s = await sim();
    const index = s.control.snapshotIndex();
    expect(() =>
      s.control.advanceSnapshot({ sentiment: [{ url: 'https://nowhere.example/x', to: 10 }] }),
    ).toThrow(/not cited/);
    expect(s.control.snapshotIndex()).toBe(index);
  });
});

describe('list filters and history', () => {
  it('domain matches a part of the domain; prompt_text a part of the prompt', async () => {
    const s = await sim();
    const g2 = (await get(s, '/get-citations', { brand_id: acme, domain: 'reddit' })).body;
    expect(g2.citations.length).toBeGreaterThan(0);
    expect(g2.citations.every((c: { domain: string }) => c.domain.includes('reddit'))).toBe(true);
    const byPrompt = (await get(s, '/get-citations', { brand_id: acme, prompt_text: 'ALTERNATIVE' })).body;
    expect(byPrompt.citations.length).toBeGreaterThan(0);
    expect(byPrompt.pagination.total).toBeLessThan(
      (await get(s, '/get-citations', { brand_id: acme })).body.pagination.total,
    );
  });

  it('limit and offset page the list', async () => {
    const s = await sim();
    const all = (await get(s, '/get-citations', { brand_id: acme, limit: 500 })).body.citations;
    const page = (await get(s, '/get-citations', { brand_id: acme, limit: 10, offset: 20 })).body;
    expect(page.citations).toEqual(all.slice(20, 30));
    expect(page.pagination).toMatchObject({ limit: 10, offset: 20, has_more: true });
  });

  it('history grows by a point per advance', async () => {
    const s = await sim();
    const before = (await get(s, '/get-citations', { brand_id: acme, view: 'history', days: 365 })).body;
    s.control.advanceSnapshot();
    const after = (await get(s, '/get-citations', { brand_id: acme, view: 'history', days: 365 })).body;
    expect(after.snapshots_available).toBe(before.snapshots_available + 1);
    expect(after.brand_time_series).toHaveLength(before.brand_time_series.length + 1);
    expect(after.date_range.end).toBe('2025-03-15');
    expect(after.date_range.start).toBe(before.date_range.start);
  });
});
