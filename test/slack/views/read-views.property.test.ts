/**
 * The read-command view builders (ideas, citations, crawler, AI Pages, generic payloads)
 * with random and huge data: thousands of citations and events, very long URLs and titles,
 * mrkdwn and JSON-escaped characters, lone surrogates, deep undocumented payloads. What
 * they build passes the local Slack's validateBlocks for messages and docs/slack.md's limits
 * as built, with the Share button added, and the central fitter has nothing to cut (so the
 * paging buttons at the end always survive).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  AiPagesRecord,
  CitationFeedResponse,
  CitationHeatmapResponse,
  CitationHistoryResponse,
  CitationListResponse,
  CitationQueriesResponse,
  CitationSourcesResponse,
  ContentIdeasResponse,
  CrawlerOverview,
} from '../../../src/api/schemas/index.js';
import { fitMessage } from '../../../src/messages/block-kit-limits.js';
import { escapeMrkdwn } from '../../../src/messages/mrkdwn.js';
import type { Reply } from '../../../src/messages/reply.js';
import { aiPagesReply } from '../../../src/slack/features/aipages/ai-pages-view.js';
import { citationSwitcher } from '../../../src/slack/features/citations/citation-switcher.js';
import { citationsFeedReply } from '../../../src/slack/features/citations/citations-feed-view.js';
import { citationsHeatmapReply } from '../../../src/slack/features/citations/citations-heatmap-view.js';
import { citationsHistoryReply } from '../../../src/slack/features/citations/citations-history-view.js';
import { citationsListReply } from '../../../src/slack/features/citations/citations-list-view.js';
import { citationsQueriesReply } from '../../../src/slack/features/citations/citations-queries-view.js';
import {
  citationsSourcesReply,
  noSourceCitationsReply,
} from '../../../src/slack/features/citations/citations-sources-view.js';
import { crawlerListReply } from '../../../src/slack/features/crawler/crawler-list-view.js';
import { crawlerOverviewReply } from '../../../src/slack/features/crawler/crawler-overview-view.js';
import {
  crawlerPayloadReply,
  previewFixButtons,
} from '../../../src/slack/features/crawler/crawler-tab-view.js';
import { genericPayloadBlocks } from '../../../src/slack/features/crawler/generic-payload.js';
import {
  ideasRefreshDoneReply,
  ideasRefreshStartedReply,
  ideasRefreshStillRunningReply,
} from '../../../src/slack/features/ideas/ideas-refresh-view.js';
import { ideasReply } from '../../../src/slack/features/ideas/ideas-view.js';
import { SHARE_BLOCK_ID, shareActionsBlock } from '../../../src/slack/views/share-button.js';
import { HOSTILE_STRINGS, liveMarkup, notPhish } from '../../helpers/live-slack-markup.js';
import { limitProblems } from './message-limit-problems.js';

// Shrinking thousands of items is slow (a CI run sat in it for over 20 minutes): a
// failure is reported as found, with its seed, not shrunk.
const RUNS = { numRuns: 40, endOnFailure: true };
const NASTY = [
  '<&>*_~`"\\|',
  '```',
  '<!here>',
  '\u0000\u0007',
  '\ud800',
  '*_',
  '&amp;&lt;',
  '…',
  'constructor',
  'valueOf',
  '__proto__',
  ...HOSTILE_STRINGS,
];

/** Short, unicode, JSON-escaping, huge and nasty strings. */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 300, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1000, maxLength: 5000 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 2000, unit: 'binary' }) },
);
const nonEmpty = text.filter((t) => t.trim() !== '');
const url = fc.oneof(
  fc.webUrl(),
  fc.webUrl().map((u) => `${u}/${'very-long-path-segment/'.repeat(150)}`),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  text,
);
const count = fc.oneof(fc.nat({ max: 1000 }), fc.nat(), fc.integer({ min: -1_000_000, max: 1_000_000_000 }));
const real = fc.oneof(
  fc.double({ min: 0, max: 100, noNaN: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const date = fc.oneof(
  fc
    .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
    .map((d) => d.toISOString().slice(0, 10)),
  text,
);
const iso = fc.oneof(
  fc
    .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
    .map((d) => d.toISOString()),
  text,
);
const names = fc.array(text, { maxLength: 12 });

/** A few items, or thousands (the same item repeated, so generation stays fast). */
function many<T>(item: fc.Arbitrary<T>, small = 25): fc.Arbitrary<T[]> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(item, { maxLength: small }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(item, fc.integer({ min: 500, max: 5000 }))
        .map(([x, n]) => Array.from({ length: n }, () => x)),
    },
  );
}

const brand = fc.record({ id: fc.uuid(), name: nonEmpty });

function expectValid(reply: Reply): void {
  expect(limitProblems(reply)).toEqual([]);
  // Nothing from the data speaks: no broadcast, mention or injected link, text included.
  expect(liveMarkup(reply, { allowedUrls: notPhish })).toEqual([]);
  // Subcommands add the Share button and the View menu under the reply (the biggest menu:
  // the sources view's, with four more long domains): that must fit too. A reply that carries
  // its own Share block is measured as it is.
  const brandId = '0b8e2a4c-1d3f-4a5b-8c7d-9e0f1a2b3c4d';
  const menu = citationSwitcher({
    brandId,
    current: 'sources',
    domain: 'x'.repeat(40),
    otherDomains: [1, 2, 3, 4].map((n) => `${'y'.repeat(40)}${n}.com`),
  });
  const hasShare = reply.blocks.some((b) => b.block_id === SHARE_BLOCK_ID);
  const shared = hasShare
    ? reply
    : {
        ...reply,
        blocks: [...reply.blocks, shareActionsBlock(`citations ${'x'.repeat(60)} list`, menu ? [menu] : [])],
      };
  expect(limitProblems(shared)).toEqual([]);
  // Nothing left for the central fitter to cut: buttons at the end always survive.
  expect(fitMessage(shared).blocks).toHaveLength(shared.blocks.length);
  for (const b of reply.blocks.filter((x) => x.type === 'actions')) {
    for (const e of (b as { elements: Array<{ action_id: string; value?: string }> }).elements) {
      if (e.action_id.startsWith('vis:') && e.action_id !== 'vis:share')
        expect(() => JSON.parse(e.value ?? '')).not.toThrow();
    }
  }
}

const idea = fc.record({
  id: text,
  type: fc.oneof(fc.constantFrom('prompt_gap', 'citation_gap', 'position_weak', 'rising', 'campaign'), text),
  query: text,
  insight: fc.option(text),
  opportunity_score: fc.integer({ min: 0, max: 100 }),
  status: fc.oneof(fc.constantFrom('active', 'dismissed', 'implemented'), text),
  recommended_template: fc.option(text),
  competitors_appearing: names,
  ai_models: names,
  your_position: fc.option(count),
});
const pagination = fc.record({ total: count, limit: count, offset: count, has_more: fc.boolean() });
const ideasResponse: fc.Arbitrary<ContentIdeasResponse> = fc.record({
  ideas: many(idea),
  pagination,
  meta: fc.option(
    fc.record({
      generated_at: fc.option(iso),
      generation_status: fc.option(text),
      total_opportunities: fc.option(count),
    }),
    { nil: undefined },
  ),
});
const status = fc.constantFrom('active', 'dismissed', 'implemented', 'all') as fc.Arbitrary<
  'active' | 'dismissed' | 'implemented' | 'all'
>;

const citation = fc.record({
  id: text,
  url,
  domain: text,
  page_title: fc.option(text),
  prompt: fc.record({ text, type: fc.option(text) }),
  metrics: fc.record({
    appearances: count,
    sentiment: fc.option(fc.oneof(fc.constantFrom('positive', 'neutral', 'negative'), text)),
    visibility_score: fc.option(real),
  }),
  seo: fc.option(fc.record({ domain_rating: fc.option(real) })),
  source_type: fc.option(text),
  search_model: fc.option(text),
  date,
});
const brandRef = fc.record({ id: text, name: text });

const feedEvent = fc.record({
  event_type: fc.oneof(fc.constantFrom('new', 'lost', 'sentiment_changed', 'competitor_appeared'), text),
  url,
  domain: text,
  h1: fc.option(text),
  source_type: fc.option(text),
  timestamp: iso,
  sentiment: fc.option(count),
  prev_sentiment: fc.option(count),
  mentions_brand: fc.option(fc.boolean(), { nil: undefined }),
  appearance_count: fc.option(count, { nil: undefined }),
  prompts: fc.option(names, { nil: undefined }),
  competitor: fc.option(text),
});

const queryInsight = fc.record({
  query: text,
  intent: fc.oneof(
    fc.constantFrom('comparison', 'alternative', 'best_for', 'discovery', 'recommendation'),
    text,
  ),
  frequency: count,
  citations_found: count,
  brand_appears: fc.boolean(),
  top_sources: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  competitors_appearing: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 5 }),
  is_new: fc.boolean(),
  trend: fc.oneof(fc.constantFrom('up', 'down', 'stable'), text),
});

/** Deep undocumented payloads: random JSON, items lists, and objects nested hundreds deep. */
const deepObject = fc
  .tuple(fc.integer({ min: 1, max: 300 }), fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }))
  .map(([depth, key, leaf]) => {
    let v: unknown = leaf;
    for (let i = 0; i < depth; i += 1) v = { [`${key}${i % 3}`]: v, n: i };
    return v as Record<string, unknown>;
  });
const looseItem = fc.oneof(
  fc.record({
    id: fc.oneof(text, count),
    url,
    title: fc.option(text, { nil: undefined }),
    path: fc.option(text, { nil: undefined }),
    name: fc.option(text, { nil: undefined }),
    visits: count,
    status_codes: fc.dictionary(fc.string({ maxLength: 4 }), count, { maxKeys: 8 }),
    crawlers: names,
    nested: fc.jsonValue({ maxDepth: 3 }),
  }),
  fc.dictionary(text, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 30 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const loosePayload: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.dictionary(text, fc.jsonValue({ maxDepth: 6 }), { maxKeys: 40 }),
  deepObject,
  fc.record({
    items: many(looseItem),
    meta: fc.record({
      total: fc.option(count),
      limit: fc.option(count),
      next_cursor: fc.option(fc.oneof(text, fc.string({ minLength: 1500, maxLength: 2500 }))),
    }),
    summary: fc.jsonValue({ maxDepth: 4 }),
    findings: many(fc.record({ id: text, title: text, severity: text, description: text })),
    range: fc.record({ start: text, end: text }),
  }),
  fc.dictionary(
    fc.string({ maxLength: 10 }),
    fc.string({ minLength: 500, maxLength: 3000 }).map((s) => s.replace(/(.{40})/g, '$1\n')),
    { maxKeys: 20 },
  ),
);

describe('content ideas views', () => {
  it('the list, with any ideas, status and position, stays within Slack limits', () => {
    fc.assert(
      fc.property(
        brand,
        status,
        fc.nat({ max: 10_000 }),
        fc.integer({ min: 1, max: 200 }),
        ideasResponse,
        (b, s, offset, limit, response) => {
          expectValid(ideasReply({ brand: b, status: s, offset, limit, response }));
        },
      ),
      RUNS,
    );
  });

  it('the refresh messages stay within Slack limits', () => {
    fc.assert(
      fc.property(
        brand,
        fc.constantFrom('generating', 'already_generating') as fc.Arbitrary<
          'generating' | 'already_generating'
        >,
        fc.option(text),
        ideasResponse,
        fc.nat(),
        (b, st, message, response, ms) => {
          expectValid(ideasRefreshStartedReply(b, { status: st, message }, 10));
          expectValid(ideasRefreshDoneReply(b, response, 10));
          expectValid(ideasRefreshStillRunningReply(b, ms, 10));
        },
      ),
      RUNS,
    );
  });
});

describe('citations views', () => {
  it('list: thousands of citations with long URLs and titles', () => {
    const response: fc.Arbitrary<CitationListResponse> = fc.record({
      brand: brandRef,
      citations: many(citation),
      pagination,
    });
    const filters = fc.record({
      domain: fc.option(text, { nil: undefined }),
      prompt: fc.option(text, { nil: undefined }),
      tags: fc.option(fc.array(fc.uuid(), { maxLength: 80 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        brand,
        filters,
        fc.nat({ max: 100_000 }),
        fc.integer({ min: 1, max: 500 }),
        response,
        (b, f, offset, limit, r) => {
          expectValid(citationsListReply({ brand: b, filters: f, offset, limit, response: r }));
        },
      ),
      RUNS,
    );
  });

  it('history: long series and many competitors', () => {
    const point = fc.record({
      date,
      total_citations: count,
      brand_mentions: count,
      unique_sources: count,
      avg_sentiment: fc.option(real),
    });
    const response: fc.Arbitrary<CitationHistoryResponse> = fc.record({
      brand: brandRef,
      brand_time_series: many(point, 60),
      competitor_time_series: fc.dictionary(text, many(fc.record({ date, mentions: count }), 40), {
        maxKeys: 60,
      }),
      snapshots_available: count,
      date_range: fc.record({ start: fc.option(date), end: fc.option(date) }),
    });
    fc.assert(
      fc.property(
        brand,
        fc.option(fc.integer({ min: 7, max: 365 }), { nil: undefined }),
        response,
        (b, days, r) => {
          expectValid(citationsHistoryReply({ brand: b, days, response: r }));
        },
      ),
      RUNS,
    );
  });

  it('queries: clusters, top and gap queries of any shape', () => {
    const cluster = fc.record({
      intent: text,
      label: text,
      queries: names,
      total_citations: count,
      brand_appears_in: count,
      coverage_rate: real,
    });
    const response: fc.Arbitrary<CitationQueriesResponse> = fc.record({
      brand: brandRef,
      clusters: many(cluster),
      top_queries: many(queryInsight),
      gap_queries: many(
        fc.oneof(queryInsight, text, fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 })),
      ),
      coverage_by_intent: fc.dictionary(text, real, { maxKeys: 30 }),
      new_queries_count: count,
      rising_queries_count: count,
    }) as fc.Arbitrary<CitationQueriesResponse>;
    fc.assert(
      fc.property(brand, response, (b, r) => expectValid(citationsQueriesReply({ brand: b, response: r }))),
      RUNS,
    );
  });

  it('sources: one domain with thousands of pages, and the 404 explanation', () => {
    const page = fc.record({
      url,
      h1: fc.option(text),
      sentiment: fc.option(count),
      mentions_brand: fc.boolean(),
      competitors: names,
      appearance_count: count,
    });
    const response: fc.Arbitrary<CitationSourcesResponse> = fc.record({
      brand: brandRef,
      domain: text,
      total_citations: count,
      unique_pages: count,
      mentions_you: fc.boolean(),
      mention_count: count,
      competitors_on_domain: names,
      avg_sentiment: fc.option(real),
      pages: many(page),
      first_seen: fc.option(date),
      last_seen: fc.option(date),
    });
    fc.assert(
      fc.property(brand, response, text, (b, r, d) => {
        expectValid(citationsSourcesReply({ brand: b, response: r }));
        expectValid(noSourceCitationsReply(b, d));
      }),
      RUNS,
    );
  });

  it('feed: thousands of events of known and unknown types', () => {
    const response: fc.Arbitrary<CitationFeedResponse> = fc.record({
      brand: brandRef,
      events: many(feedEvent, 60),
      current_snapshot_date: fc.option(date),
      previous_snapshot_date: fc.option(date),
      total_current: count,
      total_previous: count,
    });
    fc.assert(
      fc.property(
        brand,
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        response,
        (b, daysBack, r) => {
          expectValid(citationsFeedReply({ brand: b, daysBack, response: r }));
        },
      ),
      RUNS,
    );
  });

  it('heatmap: many domains and brands', () => {
    const response: fc.Arbitrary<CitationHeatmapResponse> = fc
      .record({ domains: many(text, 40), brands: many(text, 20), your_brand: text, your_coverage: real })
      .chain((base) =>
        fc.record({
          brand: brandRef,
          domains: fc.constant(base.domains),
          brands: fc.constant(base.brands),
          your_brand: fc.constant(base.your_brand),
          your_coverage: fc.constant(base.your_coverage),
          cells: fc.array(
            fc.record({
              domain: base.domains.length ? fc.constantFrom(...base.domains.slice(0, 50)) : text,
              brand: base.brands.length ? fc.constantFrom(...base.brands.slice(0, 50)) : text,
              is_present: fc.boolean(),
              mention_count: count,
            }),
            { maxLength: 300 },
          ),
          competitor_coverage: fc.dictionary(text, real, { maxKeys: 40 }),
        }),
      );
    fc.assert(
      fc.property(brand, response, (b, r) => expectValid(citationsHeatmapReply({ brand: b, response: r }))),
      RUNS,
    );
  });
});

describe('crawler and AI Pages views', () => {
  it('overview: long series, many crawlers, pages and visits', () => {
    const distribution = many(fc.record({ crawler: text, count, percentage: real }));
    const response: fc.Arbitrary<CrawlerOverview> = fc.record({
      brand_id: text,
      range: fc.record({
        range_preset: text,
        start: text,
        end: text,
        days: count,
        compare_to: fc.option(text),
      }),
      state: fc.record({
        has_tracking_id: fc.boolean(),
        has_historical_data: fc.boolean(),
        tracking_id: fc.option(text),
      }),
      hero: fc.record({
        total_visits: count,
        total_visits_change: fc.option(real),
        unique_pages: count,
        unique_pages_change: fc.option(real),
        avg_daily_visits: real,
        top_crawler: fc.option(text),
      }),
      chart: fc.record({
        series: many(fc.record({ date, count, by_crawler: fc.dictionary(text, count, { maxKeys: 5 }) }), 90),
        distribution,
        bot_type_summary: fc.record({
          training: count,
          search: count,
          interaction: count,
          agent: count,
          other: count,
        }),
      }),
      breakdown: fc.record({
        distribution,
        top_crawler: fc.option(text),
        search_bot_visits: count,
        crawl_efficiency_pct: real,
      }),
      top_pages: many(fc.record({ url, count, crawlers: names })),
      recent_preview: many(
        fc.record({ id: text, url, platform: text, intent: text, visited_at: iso, status_code: count }),
      ),
    });
    fc.assert(
      fc.property(brand, response, (b, r) => expectValid(crawlerOverviewReply({ brand: b, response: r }))),
      RUNS,
    );
  });

  it('live and pages listings: undocumented items, long cursors, drawer buttons', () => {
    const query = fc.record({
      tab: fc.constantFrom('live', 'pages') as fc.Arbitrary<'live' | 'pages'>,
      range: fc.option(fc.constant({ rangePreset: '7d' as const }), { nil: undefined }),
      view: fc.option(
        fc.constantFrom('activity', 'pages', 'sessions') as fc.Arbitrary<'activity' | 'pages' | 'sessions'>,
        { nil: undefined },
      ),
      lens: fc.option(fc.constantFrom('pages', 'paths', 'bots') as fc.Arbitrary<'pages' | 'paths' | 'bots'>, {
        nil: undefined,
      }),
      status: fc.option(text, { nil: undefined }),
      intent: fc.option(text, { nil: undefined }),
      platform: fc.option(text, { nil: undefined }),
      search: fc.option(text, { nil: undefined }),
      limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(brand, query, loosePayload, fc.nat(), (b, q, payload, offset) => {
        expectValid(crawlerListReply({ brand: b, query: q, payload, place: { offset } }));
      }),
      RUNS,
    );
  });

  it('access, drawers and action answers: any payload, any depth', () => {
    fc.assert(
      fc.property(
        brand,
        nonEmpty,
        fc.option(text, { nil: undefined }),
        loosePayload,
        (b, title, lead, payload) => {
          expectValid(
            crawlerPayloadReply({
              brand: b,
              title,
              lead: lead === undefined ? undefined : escapeMrkdwn(lead),
              payload,
              actions: previewFixButtons(b.id, payload),
            }),
          );
          const blocks = genericPayloadBlocks(payload, 9000);
          expect(limitProblems({ text: 'x', blocks })).toEqual([]);
        },
      ),
      RUNS,
    );
  });

  it('AI Pages: set up or not, any features, crawlers and usage', () => {
    const record: fc.Arbitrary<AiPagesRecord> = fc.record({
      brand: fc.record({ id: text, name: text, website: fc.option(text) }),
      config: fc.option(
        fc.record({
          enabled: fc.boolean(),
          domain: text,
          platform: fc.option(fc.oneof(fc.constantFrom('cloudflare', 'vercel', 'nextjs', 'other'), text)),
          features: many(fc.oneof(fc.constantFrom('structureddatainjection', 'aisummaryblock'), text)),
          crawlers: many(text),
        }),
      ),
      usage: fc.option(
        fc.record({
          requests_this_month: count,
          requests_limit: count,
          percentage_used: fc.double({ min: 0, max: 100, noNaN: true }),
          reset_date: iso,
        }),
      ),
    });
    fc.assert(
      fc.property(brand, record, (b, r) => expectValid(aiPagesReply(b, r))),
      RUNS,
    );
  });
});
