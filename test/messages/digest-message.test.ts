import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeDigest, type Digest } from '../../src/alerts/compose-digest.js';
import { periodsFromOverview } from '../../src/alerts/detect-crawler.js';
import type { ContentIdea } from '../../src/api/schemas/content-ideas.js';
import { buildDigestMessage } from '../../src/messages/digest-message.js';
import { aiPages, BRAND, ev, feed, overview } from '../alerts/fixtures.js';
import { limitProblems } from '../slack/views/message-limit-problems.js';

type Json = Record<string, unknown>;

const idea = (id: string, score: number, query = `how to pick ${id}`): ContentIdea => ({
  id,
  type: 'citation_gap',
  query,
  insight: null,
  opportunity_score: score,
  status: 'active',
  recommended_template: 'listicle',
  competitors_appearing: [],
  ai_models: [],
  your_position: null,
});

function digest(): Digest {
  return composeDigest({
    brand: BRAND,
    date: '2025-03-01',
    feed: feed([
      ev('new', 'https://a.example/new-page', '2025-03-01T00:00:00Z', { h1: 'A | tricky > title' }),
      ev('lost', 'https://b.example/old', '2025-03-01T00:00:00Z'),
    ]),
    ideas: [idea('a', 90), idea('b', 80)],
    crawler: periodsFromOverview(overview('2025-03-01', { GPTBot: 700 }, { GPTBot: 350 }), '2025-03-01'),
    aiPages: aiPages(42),
  });
}

/** What a reader sees where Slack cannot render a date token: its fallback, the one date style. */
const fallbackDates = (text: string) => text.replace(/<!date\^\d+\^[^|]+\|([^>]+)>/g, '$1');

describe('buildDigestMessage', () => {
  const msg = buildDigestMessage(digest());
  const raw = JSON.stringify(msg.blocks);
  const body = fallbackDates(raw);

  it('renders every section within the limits', () => {
    expect(limitProblems(msg)).toEqual([]);
    expect(msg.blocks[0]).toMatchObject({
      type: 'header',
      text: { text: 'Acme Analytics: daily digest, Mar 1, 2025' },
    });
    // Pages, by the glossary's name, with the feed's two days; "citations" count times cited.
    expect(body).toContain('*Cited pages*: 120 on Mar 1, 2025 vs 118 on Feb 22, 2025 (+2): 1 new, 1 lost');
    expect(raw).toContain('<!date^1740830400^{date_short}|Mar 1, 2025>');
    expect(body).not.toMatch(/\*Citations\*/);
    expect(body).toContain('<https://a.example/new-page|A ¦ tricky &gt; title>');
    expect(body).toContain('*Top content ideas* (2 active)');
    // Ideas in the ideas view's words, never the service's codes.
    expect(body).toContain(
      '1. *how to pick a* (opportunity score 90/100 · Citation gap · Format: List article)',
    );
    expect(body).not.toMatch(/citation_gap|listicle/);
    expect(body).toContain(
      '*AI crawler visits*, 7 days to Mar 1, 2025: 350 vs 700 in the 7 days before (−50 %)',
    );
    expect(body).toContain(
      '*AI Pages usage*: 42 % of the monthly limit (42,000 of 100,000 AI Pages requests), resets Apr 1, 2025.',
    );
    expect(msg.text).toContain('Acme Analytics: daily digest for Mar 1, 2025.');
    expect(msg.text).toContain('Cited pages 120 (+2): 1 new, 1 lost.');
  });

  it('has the four drill-in buttons with the brand in their value, the change feed on the section’s window', () => {
    const accessories = (msg.blocks as unknown as Json[])
      .filter((b) => b['accessory'])
      .map((b) => b['accessory'] as Json);
    expect(accessories.map((a) => a['action_id'])).toEqual([
      'vis:open:citations-feed',
      'vis:open:ideas',
      'vis:open:crawler',
      'vis:open:aipages',
    ]);
    const [feedButton, ...others] = accessories.map((a) => JSON.parse(String(a['value'])));
    // The section compares the fixture's snapshots 7 days apart: the feed opens on those 7 days.
    expect(feedButton).toEqual({ brandId: BRAND.id, 'days-back': '7' });
    for (const value of others) expect(value).toEqual({ brandId: BRAND.id });
  });

  it('metadata carries the dedupe key; a late digest says so', () => {
    expect(msg.metadata).toMatchObject({
      event_type: 'visibility_digest',
      event_payload: { dedupe_key: `digest:${BRAND.id}:2025-03-01` },
    });
    const late = buildDigestMessage({ ...digest(), late: true });
    expect(JSON.stringify(late.blocks[0])).toContain('(late)');
    expect(JSON.stringify(late.blocks)).toContain('This digest is late');
    expect(late.metadata.event_payload['late']).toBe(true);
  });

  it('unavailable sections say why', () => {
    const d: Digest = {
      ...digest(),
      citations: { status: 'unavailable', reason: 'The service did not answer in time.' },
      aiPages: { status: 'no_entitlement' },
    };
    const text = JSON.stringify(buildDigestMessage(d).blocks);
    expect(text).toContain('*Cited pages*: unavailable: The service did not answer in time.');
    expect(text).toContain('*AI Pages*: not part of your plan.');
  });

  it('long lists end in "…and N more"', () => {
    const events = Array.from({ length: 300 }, (_, i) =>
      ev('new', `https://n${i}.example/${'p'.repeat(300)}`, '2025-03-01T00:00:00Z', { appearance_count: i }),
    );
    const d = composeDigest({ ...digestInput(), feed: feed(events), limits: { urls: 300 } });
    const m = buildDigestMessage(d);
    expect(limitProblems(m)).toEqual([]);
    const more = /…and (\d+) more/.exec(JSON.stringify(m.blocks));
    expect(more).not.toBeNull();
  });
});

function digestInput() {
  return {
    brand: BRAND,
    date: '2025-03-01',
    feed: feed([]),
    ideas: [] as ContentIdea[],
    crawler: { error: 'x' },
    aiPages: { error: 'y' },
  };
}

describe('buildDigestMessage: Block Kit limits hold for any input (property)', () => {
  const nasty = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.constantFrom('<!here>', '*_~`', '&&&<<>>', '|||', '😀'.repeat(40)),
    fc.string({ minLength: 1000, maxLength: 5000 }),
  );
  const url = fc.oneof(
    fc.webUrl(),
    nasty,
    fc.string({ minLength: 2000, maxLength: 4000 }).map((s) => `https://x.example/${s}`),
  );
  const digestArb: fc.Arbitrary<Digest> = fc.record({
    brandId: fc.uuid(),
    brandName: nasty.map((s) => s || 'Brand'),
    date: fc.constant('2025-03-01'),
    late: fc.boolean(),
    key: fc.constant('digest:x:2025-03-01'),
    citations: fc.oneof(
      fc.record({ status: fc.constant('unavailable' as const), reason: nasty }),
      fc.record({
        status: fc.constant('ok' as const),
        current: fc.nat(),
        previous: fc.nat(),
        changePct: fc.option(fc.double({ min: -100, max: 1e6, noNaN: true })),
        currentDate: fc.option(nasty),
        previousDate: fc.option(nasty),
        newCount: fc.nat({ max: 100000 }),
        lostCount: fc.nat({ max: 100000 }),
        topNew: fc.array(
          fc.record({ url, domain: nasty, title: fc.option(nasty), appearances: fc.option(fc.nat()) }),
          { maxLength: 60 },
        ),
        topLost: fc.array(
          fc.record({ url, domain: nasty, title: fc.option(nasty), appearances: fc.option(fc.nat()) }),
          { maxLength: 60 },
        ),
      }),
    ),
    ideas: fc.oneof(
      fc.record({ status: fc.constant('unavailable' as const), reason: nasty }),
      fc.record({
        status: fc.constant('ok' as const),
        activeCount: fc.nat(),
        top: fc.array(
          fc.record({
            id: fc.uuid(),
            query: nasty,
            score: fc.integer({ min: 0, max: 100 }),
            type: nasty,
            template: fc.option(nasty),
          }),
          { maxLength: 60 },
        ),
      }),
    ),
    crawler: fc.oneof(
      fc.record({ status: fc.constant('unavailable' as const), reason: nasty }),
      fc.record({
        status: fc.constant('ok' as const),
        current: fc.nat(),
        previous: fc.nat(),
        changePct: fc.option(fc.double({ min: -100, max: 1e6, noNaN: true })),
        start: nasty,
        end: nasty,
        topCrawlers: fc.array(fc.record({ crawler: nasty, previous: fc.nat(), current: fc.nat() }), {
          maxLength: 40,
        }),
      }),
    ),
    aiPages: fc.oneof(
      fc.record({ status: fc.constant('unavailable' as const), reason: nasty }),
      fc.constant({ status: 'no_entitlement' as const }),
      fc.constant({ status: 'not_set_up' as const }),
      fc.record({
        status: fc.constant('ok' as const),
        enabled: fc.boolean(),
        percentageUsed: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
        used: fc.option(fc.nat()),
        limit: fc.option(fc.nat()),
        resetDate: fc.option(nasty),
      }),
    ),
  });

  it('random and huge digests', () => {
    fc.assert(
      fc.property(digestArb, (d) => {
        expect(limitProblems(buildDigestMessage(d))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
