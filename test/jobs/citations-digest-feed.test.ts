/**
 * The feed the citations poll stores for the digest (citations-job.ts digestFeedOf) keeps
 * only what the digest reads: the digest made from it is the one made from the whole feed,
 * repeated URLs and all.
 */
import { describe, expect, it } from 'vitest';
import { composeDigest } from '../../src/alerts/compose-digest.js';
import { digestFeedOf } from '../../src/jobs/citations-job.js';
import { BRAND, ev, feed } from '../alerts/fixtures.js';

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

const digestOf = (f: typeof full, urls: number) =>
  composeDigest({
    brand: BRAND,
    date: '2025-03-01',
    feed: f,
    // Only the citations section reads the feed.
    ideas: [],
    crawler: { error: 'not asked' },
    aiPages: { error: 'not asked' },
    limits: { urls },
  });

describe('the feed stored for the digest', () => {
  it('makes the same digest as the whole feed, whatever the number of pages listed', () => {
    const stored = digestFeedOf(full);
    for (const urls of [1, 2, 3, 5, 50]) expect(digestOf(stored, urls)).toEqual(digestOf(full, urls));
  });

  it('keeps the new and lost events, with the fields the digest shows', () => {
    const stored = digestFeedOf(full);
    expect(stored.events.map((e) => `${e.event_type} ${e.url}`)).toEqual([
      'new https://a.example/1',
      'new https://a.example/2',
      'new https://a.example/2',
      'new https://a.example/3',
      'new https://a.example/4',
      'lost https://b.example/x',
      'lost https://b.example/x',
      'lost https://a.example/1',
      'new https://b.example/z',
    ]);
    expect(stored.events[1]).toEqual({
      event_type: 'new',
      url: 'https://a.example/2',
      domain: 'a.example',
      timestamp: T,
      h1: '  Best tools ',
      appearance_count: 9,
    });
    const { events: _all, ...totals } = full;
    const { events: _kept, ...storedTotals } = stored;
    expect(storedTotals).toEqual(totals);
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(full).length * 0.7);
  });
});
