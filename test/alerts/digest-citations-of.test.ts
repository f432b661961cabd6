/**
 * The citations poll stores the digest's citations section of the feed (digestCitationsOf),
 * not the feed: the digest made from it is the one made from the whole feed, repeated
 * URLs and all.
 */
import { describe, expect, it } from 'vitest';
import { composeDigest, digestCitationsOf } from '../../src/alerts/compose-digest.js';
import { BRAND, ev, feed } from './fixtures.js';

const T = '2025-03-01T00:00:00Z';
const full = feed([
  ev('new', 'https://a.example/1', T, { appearance_count: 2, prompts: ['a long prompt', 'another'] }),
  ev('new', 'https://a.example/2', T, { appearance_count: 9, h1: '  Best tools ' }),
  ev('sentiment_changed', 'https://a.example/2', T, { sentiment: 20, prev_sentiment: 80 }),
  ev('new', 'https://a.example/2', T, { appearance_count: 1, h1: 'A later title' }),
  ev('new', 'https://a.example/3', T, { appearance_count: 9 }),
  ev('new', 'https://a.example/4', T, { appearance_count: undefined }),
  ev('lost', 'https://b.example/x', T, { h1: 'Gone' }),
  ev('competitor_appeared', 'https://b.example/y', T, { competitor: 'Rival' }),
  ev('lost', 'https://b.example/x', '2025-02-28T00:00:00Z'),
  ev('lost', 'https://a.example/1', T),
  ev('new', 'https://b.example/z', T, { appearance_count: 9, h1: '' }),
]);

const digestOf = (f: Parameters<typeof composeDigest>[0]['feed'], urls?: number) =>
  composeDigest({
    brand: BRAND,
    date: '2025-03-01',
    feed: f,
    // Only the citations section reads the feed.
    ideas: [],
    crawler: { error: 'not asked' },
    aiPages: { error: 'not asked' },
    ...(urls === undefined ? {} : { limits: { urls } }),
  });

describe('the citations section stored for the digest', () => {
  it('makes the same digest as the whole feed, for as many pages as it keeps', () => {
    const stored = digestCitationsOf(full, 3);
    for (const urls of [1, 2, 3]) expect(digestOf(stored, urls)).toEqual(digestOf(full, urls));
    expect(digestOf(digestCitationsOf(full))).toEqual(digestOf(full));
  });

  it('counts every new and lost page once and lists the most cited new pages first', () => {
    const section = digestCitationsOf(full);
    expect(section).toMatchObject({ newCount: 5, lostCount: 2, current: full.total_current });
    expect(section.topNew.map((u) => u.url)).toEqual([
      'https://a.example/2',
      'https://a.example/3',
      'https://b.example/z',
      'https://a.example/1',
      'https://a.example/4',
    ]);
    expect(section.topNew[0]).toEqual({
      url: 'https://a.example/2',
      domain: 'a.example',
      title: 'Best tools',
      appearances: 9,
    });
    expect(section.topLost.map((u) => u.url)).toEqual(['https://b.example/x', 'https://a.example/1']);
  });

  it('is a small fraction of the feed it stands for', () => {
    const big = feed(
      Array.from({ length: 500 }, (_, i) =>
        ev(i % 4 === 0 ? 'lost' : 'new', `https://a.example/page-${i}`, T, { appearance_count: i % 7 }),
      ),
    );
    expect(JSON.stringify(digestCitationsOf(big)).length).toBeLessThan(JSON.stringify(big).length / 20);
  });
});
