import { describe, expect, it } from 'vitest';
import { composeDigest } from '../../src/alerts/compose-digest.js';
import { periodsFromOverview } from '../../src/alerts/detect-crawler.js';
import type { ContentIdea } from '../../src/api/schemas/content-ideas.js';
import { aiPages, BRAND, ev, feed, overview } from './fixtures.js';

function idea(id: string, score: number, status = 'active'): ContentIdea {
  return {
    id,
    type: 'prompt_gap',
    query: `query ${id}`,
    insight: null,
    opportunity_score: score,
    status,
    recommended_template: 'comparison',
    competitors_appearing: ['Rival'],
    ai_models: ['gpt-4o'],
    your_position: null,
    created_at: '2025-02-20T00:00:00Z',
  };
}

const citations = feed([
  ev('new', 'https://a.example/1', '2025-03-01T00:00:00Z', { appearance_count: 2 }),
  ev('new', 'https://a.example/2', '2025-03-01T00:00:00Z', { appearance_count: 9, h1: 'Best tools' }),
  ev('new', 'https://a.example/2', '2025-03-01T00:00:00Z', { appearance_count: 9 }),
  ev('lost', 'https://b.example/x', '2025-03-01T00:00:00Z'),
  ev('sentiment_changed', 'https://b.example/y', '2025-03-01T00:00:00Z'),
]);

describe('composeDigest', () => {
  const digest = composeDigest({
    brand: BRAND,
    date: '2025-03-01',
    feed: citations,
    ideas: [
      idea('a', 40),
      idea('b', 90),
      idea('c', 70, 'dismissed'),
      idea('d', 60),
      idea('e', 10),
      idea('f', 55),
      idea('g', 80),
    ],
    crawler: periodsFromOverview(
      overview('2025-03-01', { GPTBot: 700, ClaudeBot: 300 }, { GPTBot: 350, ClaudeBot: 320 }),
      '2025-03-01',
    ),
    aiPages: aiPages(42.5),
  });

  it('has a key per brand and date', () => {
    expect(digest.key).toBe(`digest:${BRAND.id}:2025-03-01`);
    expect(digest.late).toBe(false);
  });

  it('citations: totals, change, new (most cited first, deduped) and lost', () => {
    expect(digest.citations).toMatchObject({
      status: 'ok',
      current: 120,
      previous: 118,
      newCount: 2,
      lostCount: 1,
    });
    if (digest.citations.status !== 'ok') throw new Error('unreachable');
    expect(digest.citations.changePct).toBeCloseTo(1.69, 1);
    expect(digest.citations.topNew.map((u) => u.url)).toEqual(['https://a.example/2', 'https://a.example/1']);
    expect(digest.citations.topNew[0]!.title).toBe('Best tools');
    expect(digest.citations.topLost.map((u) => u.url)).toEqual(['https://b.example/x']);
  });

  it('ideas: active only, by score, top 5', () => {
    if (digest.ideas.status !== 'ok') throw new Error('unreachable');
    expect(digest.ideas.activeCount).toBe(6);
    expect(digest.ideas.top.map((i) => i.id)).toEqual(['b', 'g', 'd', 'f', 'a']);
  });

  it('crawler: totals, change and the crawlers that fell most', () => {
    expect(digest.crawler).toMatchObject({ status: 'ok', current: 670, previous: 1000, end: '2025-03-01' });
    if (digest.crawler.status !== 'ok') throw new Error('unreachable');
    expect(digest.crawler.changePct).toBeCloseTo(-33);
    expect(digest.crawler.topCrawlers.map((c) => c.crawler)).toEqual(['GPTBot']);
  });

  it('AI Pages usage', () => {
    expect(digest.aiPages).toMatchObject({
      status: 'ok',
      enabled: true,
      percentageUsed: 42.5,
      limit: 100_000,
    });
  });

  it('a failed source makes only its own section unavailable', () => {
    const d = composeDigest({
      brand: BRAND,
      date: '2025-03-02',
      late: true,
      feed: { error: 'The service did not answer in time.' },
      ideas: [],
      crawler: { error: 'Crawler tracking is not set up.' },
      aiPages: { unavailable: 'no_entitlement' },
    });
    expect(d.late).toBe(true);
    expect(d.citations).toEqual({ status: 'unavailable', reason: 'The service did not answer in time.' });
    expect(d.ideas).toEqual({ status: 'ok', activeCount: 0, top: [] });
    expect(d.crawler.status).toBe('unavailable');
    expect(d.aiPages).toEqual({ status: 'no_entitlement' });
  });

  it('AI Pages not set up', () => {
    const d = composeDigest({
      brand: BRAND,
      date: '2025-03-02',
      feed: citations,
      ideas: [],
      crawler: { error: 'x' },
      aiPages: { ...aiPages(0), config: null, usage: null },
    });
    expect(d.aiPages).toEqual({ status: 'not_set_up' });
  });
});
