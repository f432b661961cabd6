import { describe, expect, it } from 'vitest';
import { crawlerOverviewReply } from '../../../../src/slack/features/crawler/crawler-overview-view.js';
import { overviewFromSeries } from '../../../alerts/fixtures.js';

const brand = { id: 'b1', name: 'Acme' };
const series = Array.from({ length: 7 }, (_, i) => ({
  date: `2026-11-${String(22 + i).padStart(2, '0')}`,
  count: 100,
  by_crawler: { GPTBot: 100 },
}));
const pages = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    url: `https://acme.example/p${i}`,
    count: 100 - i,
    crawlers: ['GPTBot'],
  }));
const textOf = (reply: ReturnType<typeof crawlerOverviewReply>) => JSON.stringify(reply.blocks);

describe('crawler overview: top pages', () => {
  it('says the list is the top few of the pages visited, so "and 2 more" is not the rest of the site', () => {
    const r = overviewFromSeries(brand.id, series, '2026-11-28');
    const reply = crawlerOverviewReply({ brand, response: { ...r, top_pages: pages(10) } });
    expect(r.hero.unique_pages).toBe(40);
    expect(textOf(reply)).toContain('*Top 10 of the 40 pages visited*');
    expect(textOf(reply)).toContain('…and 2 more');
  });

  it('is plain "Top pages" when it lists every page visited', () => {
    const r = overviewFromSeries(brand.id, series, '2026-11-28');
    const reply = crawlerOverviewReply({
      brand,
      response: { ...r, hero: { ...r.hero, unique_pages: 3 }, top_pages: pages(3) },
    });
    expect(textOf(reply)).toContain('*Top pages*');
    expect(textOf(reply)).not.toContain('more');
  });
});
