import { describe, expect, it } from 'vitest';
import { crawlerFallWhy, ownPageWhy, thirdPartyWhy } from '../../src/alerts/why-lines.js';

const at = (iso: string) => Date.parse(iso);

describe('why-lines: a lost citation of the brand own page', () => {
  it('says when a crawler last reached it and that the site answered normally', () => {
    const lines = ownPageWhy({
      days: 7,
      visits: [
        { crawler: 'GPTBot', visitedAtMs: at('2026-11-20T08:00:00Z'), statusCode: 200 },
        { crawler: 'PerplexityBot', visitedAtMs: at('2026-11-26T20:33:00Z'), statusCode: 200 },
      ],
    });
    expect(lines).toEqual([
      'AI crawlers still reach this page: last visit by PerplexityBot on Nov 26, 2026 at 8:33 PM UTC, answered normally (status 200).',
    ]);
  });

  it('says the page answered an error when the last visit got one', () => {
    const [line] = ownPageWhy({
      days: 7,
      visits: [{ crawler: 'ClaudeBot', visitedAtMs: at('2026-11-26T10:00:00Z'), statusCode: 403 }],
    });
    expect(line).toContain('AI crawlers cannot read this page');
    expect(line).toContain('status 403');
  });

  it('says no crawler visited when the crawler data lists none', () => {
    expect(ownPageWhy({ days: 7, visits: [] })).toEqual([
      'The crawler data shows no AI crawler visit to this page in the last 7 days.',
    ]);
  });

  it('says nothing when the crawler data was not fetched', () => {
    expect(ownPageWhy(null)).toEqual([]);
  });
});

describe('why-lines: a lost third-party page', () => {
  const sources = {
    domain: 'g2.com',
    competitorsOnDomain: ['Rival', 'Other Co'],
    pages: [{ url: 'https://g2.com/compare', competitors: ['Rival'] }],
  };

  it('names the competitors on that page when the sources view lists it', () => {
    expect(thirdPartyWhy('https://g2.com/compare', sources)).toEqual([
      'Competitors now on this page: Rival (from the sources of g2.com).',
    ]);
  });

  it('names the competitors on the domain otherwise', () => {
    expect(thirdPartyWhy('https://g2.com/other', sources)).toEqual([
      'Competitors now on g2.com: Rival and Other Co.',
    ]);
  });

  it('says nothing when no competitor is there or the sources were not fetched', () => {
    expect(
      thirdPartyWhy('https://g2.com/x', { domain: 'g2.com', competitorsOnDomain: [], pages: [] }),
    ).toEqual([]);
    expect(thirdPartyWhy('https://g2.com/x', null)).toEqual([]);
  });
});

describe('why-lines: a crawler fall', () => {
  it('names the pages that lost most visits, largest first', () => {
    const lines = crawlerFallWhy([
      { url: 'https://acme.example/a', previous: 100, current: 90 },
      { url: 'https://acme.example/b', previous: 1200, current: 300 },
      { url: 'https://acme.example/c', previous: 50, current: 80 },
      { url: 'https://acme.example/d', previous: 40, current: 0 },
    ]);
    expect(lines).toEqual([
      'Pages with the largest fall in AI crawler visits: https://acme.example/b 1,200 → 300 (−75 %); https://acme.example/d 40 → 0 (−100 %); https://acme.example/a 100 → 90 (−10 %).',
    ]);
  });

  it('says nothing when no page fell or the page data is missing', () => {
    expect(crawlerFallWhy([{ url: 'https://acme.example/a', previous: 5, current: 9 }])).toEqual([]);
    expect(crawlerFallWhy(null)).toEqual([]);
  });
});
