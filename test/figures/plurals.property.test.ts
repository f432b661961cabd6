/**
 * Every message builder, fed counts of 0, 1 and 2 (where "1 gaps", "1 queries" and
 * "1 appearances" hide), and brand names ending in "s" (where "Analytics's" hides): no
 * count of one is followed by a plural, and no name ending in s takes "'s". One helper
 * (src/figures/plural.ts) writes them; this holds every message to it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '../../src/alerts/alert-settings.js';
import { composeDigest } from '../../src/alerts/compose-digest.js';
import { detectAiPages } from '../../src/alerts/detect-ai-pages.js';
import { detectCitations } from '../../src/alerts/detect-citations.js';
import { detectCrawler, periodsFromOverview } from '../../src/alerts/detect-crawler.js';
import { groupAlerts } from '../../src/alerts/group-alerts.js';
import type { Alert } from '../../src/alerts/types.js';
import type { ContentIdea } from '../../src/api/schemas/content-ideas.js';
import { buildAlertMessage } from '../../src/messages/alert-message.js';
import { buildDigestMessage } from '../../src/messages/digest-message.js';
import { groupHeldMessages } from '../../src/messages/held-alerts-message.js';
import { aiPagesReply } from '../../src/slack/features/aipages/ai-pages-view.js';
import { citationsFeedReply } from '../../src/slack/features/citations/citations-feed-view.js';
import { citationsHeatmapReply } from '../../src/slack/features/citations/citations-heatmap-view.js';
import { citationsHistoryReply } from '../../src/slack/features/citations/citations-history-view.js';
import { citationsListReply } from '../../src/slack/features/citations/citations-list-view.js';
import { citationsQueriesReply } from '../../src/slack/features/citations/citations-queries-view.js';
import { citationsSourcesReply } from '../../src/slack/features/citations/citations-sources-view.js';
import { helpFiguresReply } from '../../src/slack/features/help/help-view.js';
import { brandsHomeView } from '../../src/slack/features/home/home-view.js';
import { ideasReply } from '../../src/slack/features/ideas/ideas-view.js';
import {
  settingsReply,
  subscribedReply,
  subscriptionsReply,
} from '../../src/slack/features/subscriptions/subscriptions-view.js';
import type { Subscription } from '../../src/store/subscriptions-repo.js';
import { aiPages, ev, feed, overview } from '../alerts/fixtures.js';
import {
  citationHeatmap,
  citationHistory,
  citationList,
  citationQueries,
  citationSources,
  contentIdeas,
} from '../helpers/api-payloads.js';

const RUNS = { numRuns: 60 };
const NOW = Date.parse('2025-03-01T10:00:00Z');

/** Where the grammar goes wrong: one, and its neighbours. */
const few = fc.constantFrom(0, 1, 2);
/** Names ending in s (bare apostrophe), in another letter (apostrophe s), and a short one. */
const brandName = fc.constantFrom('Acme Analytics', 'Northwind Outfitters', 'Pendo', 'Globex', 'Xs');
const brandOf = (name: string) => ({ id: '6f1c2d3e-0000-4000-8000-00000000a001', name });

/** Lower-case words ending in s that are singular, so "1 status" or "1 is" is not flagged. */
const SINGULAR_S = new Set([
  'is',
  'was',
  'has',
  'does',
  'this',
  'its',
  'news',
  'status',
  'analysis',
  'series',
  'less',
  'across',
  'plus',
  'yes',
  'us',
  'as',
  'access',
  'vs',
]);
/** Words that sit between a count and its noun ("1 more page", "1 new cited page"). */
const BETWEEN = new Set([
  'more',
  'new',
  'other',
  'lost',
  'cited',
  'top',
  'active',
  'daily',
  'brand',
  'competitor',
]);

/** Every text a reader sees in a message or view: `text` fields, date tokens as their fallback. */
function readable(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'text' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(value);
  return out.join('\n').replace(/<!date\^\d+\^[^|]+\|([^>]+)>/g, '$1');
}

/** "1 gaps", "1 more pages", "of 1 queries": a one followed by a plural noun. */
function onesWithPlural(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?<![\d.,−-])\b1 ((?:[a-z-]+ ){0,2}[a-z-]+)/g)) {
    for (const word of m[1]!.split(' ')) {
      if (BETWEEN.has(word)) continue;
      if (/s$/.test(word) && !SINGULAR_S.has(word)) found.push(m[0]);
      break;
    }
  }
  return found;
}

function expectGoodGrammar(what: string, built: unknown): void {
  const text = readable(built);
  expect(onesWithPlural(text), `${what}:\n${text}`).toEqual([]);
  expect(text, what).not.toMatch(/s['’]s\b/);
}

const idea = (i: number, status: ContentIdea['status']): ContentIdea => ({
  ...contentIdeas.ideas[0]!,
  id: `idea_${i}`,
  status,
  competitors_appearing: i === 0 ? [] : ['Brooks'],
});

describe('no "1 <plural>" and no "s\'s" in any message', () => {
  it('alerts of every kind, grouped or alone, and the held messages that gather them', () => {
    fc.assert(
      fc.property(brandName, few, few, few, (name, lost, fall, level) => {
        const brand = brandOf(name);
        const events = [
          ...Array.from({ length: lost }, (_, i) =>
            ev('lost', `https://a${i}.example/p`, '2025-03-01T05:00:00Z'),
          ),
          ev('sentiment_changed', 'https://s.example/p', '2025-03-01T05:00:00Z', {
            sentiment: 69,
            prev_sentiment: 70 + fall * 20,
          }),
          ev('competitor_appeared', 'https://c.example/p', '2025-03-01T05:00:00Z', {
            competitor: 'Pendo',
          } as never),
        ];
        const settings = { ...DEFAULT_ALERT_SETTINGS, sentimentDrop: 1 };
        const citations = detectCitations(new Map(), { ...feed(events), brand }, settings, NOW);
        const crawler = detectCrawler(
          null,
          periodsFromOverview(
            overview('2025-03-01', { GPTBot: 7 * (fall + 1) }, { GPTBot: fall }),
            '2025-03-01',
          ),
          settings,
          brand,
          NOW,
        );
        const pages = detectAiPages(null, aiPages(80 + level * 10), settings, brand, NOW);
        const alerts: Alert[] = [...citations.alerts, ...crawler.alerts, ...pages.alerts];
        for (const group of groupAlerts(alerts)) {
          const message = buildAlertMessage(group);
          expectGoodGrammar('alert', message);
          for (const one of group.alerts)
            expectGoodGrammar('alert', buildAlertMessage({ ...group, alerts: [one] }));
          const held = groupHeldMessages(
            [message, message].map((m) => ({ ...m, blocks: m.blocks as unknown[] })),
          );
          expectGoodGrammar(
            'held alerts',
            held.map((h) => h.message),
          );
        }
      }),
      RUNS,
    );
  });

  it('the digest, with one of each', () => {
    fc.assert(
      fc.property(brandName, few, few, few, (name, newCount, lostCount, ideas) => {
        const events = [
          ...Array.from({ length: newCount }, (_, i) =>
            ev('new', `https://n${i}.example/p`, '2025-03-01T05:00:00Z', { appearance_count: 1 }),
          ),
          ...Array.from({ length: lostCount }, (_, i) =>
            ev('lost', `https://l${i}.example/p`, '2025-03-01T05:00:00Z'),
          ),
        ];
        const digest = composeDigest({
          brand: brandOf(name),
          date: '2025-03-01',
          feed: { ...feed(events), total_current: newCount, total_previous: lostCount },
          ideas: Array.from({ length: ideas }, (_, i) => idea(i, 'active')),
          crawler: periodsFromOverview(overview('2025-03-01', { GPTBot: 1 }, { GPTBot: 1 }), '2025-03-01'),
          aiPages: aiPages(1),
        });
        expectGoodGrammar('digest', buildDigestMessage(digest));
      }),
      RUNS,
    );
  });

  it('the citation views, the ideas and AI Pages views', () => {
    fc.assert(
      fc.property(brandName, few, few, (name, n, m) => {
        const brand = brandOf(name);
        const citation = {
          ...citationList.citations[0]!,
          metrics: { ...citationList.citations[0]!.metrics, appearances: n },
        };
        const list = {
          ...citationList,
          citations: Array.from({ length: n }, () => citation),
          pagination: { ...citationList.pagination, total: n },
        };
        expectGoodGrammar(
          'list',
          citationsListReply({
            brand,
            filters: { tags: Array(m).fill('t') },
            offset: 0,
            limit: 20,
            response: list as never,
          }),
        );
        const history = {
          ...citationHistory,
          snapshots_available: n,
          brand_time_series: citationHistory.brand_time_series.map((p) => ({
            ...p,
            total_citations: n,
            brand_mentions: m,
            unique_sources: n,
            avg_sentiment: 50 + m,
          })),
          competitor_time_series: Object.fromEntries(
            Array.from({ length: 17 + m }, (_, i) => [`Rival ${i}`, [{ date: '2025-01-12', mentions: n }]]),
          ),
        };
        expectGoodGrammar(
          'history',
          citationsHistoryReply({ brand, days: undefined, response: history as never, nowMs: NOW }),
        );
        const queries = {
          ...citationQueries,
          clusters: citationQueries.clusters.map((c) => ({
            ...c,
            total_citations: n,
            queries: c.queries.slice(0, m || 1),
          })),
          top_queries: citationQueries.top_queries.slice(0, n).map((q) => ({ ...q, citations_found: m })),
          gap_queries: citationQueries.gap_queries.slice(0, m),
          new_queries_count: n,
          rising_queries_count: m,
        };
        expectGoodGrammar('queries', citationsQueriesReply({ brand, response: queries as never }));
        const sources = {
          ...citationSources,
          total_citations: n,
          unique_pages: m,
          mention_count: n,
          pages: citationSources.pages.map((p) => ({ ...p, appearance_count: m })),
        };
        expectGoodGrammar('sources', citationsSourcesReply({ brand, response: sources as never }));
        const events = [
          ...Array.from({ length: n }, (_, i) =>
            ev('new', `https://n${i}.example/p`, '2025-03-01T05:00:00Z', { appearance_count: m }),
          ),
          ...Array.from({ length: m }, (_, i) =>
            ev('lost', `https://l${i}.example/p`, '2025-03-01T05:00:00Z'),
          ),
        ];
        expectGoodGrammar(
          'feed',
          citationsFeedReply({ brand, daysBack: n || undefined, response: feed(events) }),
        );
        const domains = citationHeatmap.domains.slice(0, Math.max(1, n));
        expectGoodGrammar(
          'heatmap',
          citationsHeatmapReply({
            brand,
            response: {
              ...citationHeatmap,
              domains,
              brands: citationHeatmap.brands.slice(0, m || 1),
            } as never,
          }),
        );
        const ideas = {
          ...contentIdeas,
          ideas: Array.from({ length: n }, (_, i) => idea(i, i === 0 ? 'active' : 'dismissed')),
          pagination: { ...contentIdeas.pagination, total: n },
        };
        expectGoodGrammar(
          'ideas',
          ideasReply({ brand, status: 'all', offset: 0, limit: 20, response: ideas as never }),
        );
        const record = aiPages(n);
        expectGoodGrammar('aipages', aiPagesReply(brand, record as never));
      }),
      RUNS,
    );
  });

  it('the App Home, the subscriptions and settings replies, and help figures', () => {
    fc.assert(
      fc.property(brandName, few, few, (name, n, m) => {
        const sub: Subscription = {
          id: 1,
          channelId: 'C1',
          brandId: brandOf(name).id,
          brandName: name,
          alerts: true,
          digest: true,
          settings: {
            ...DEFAULT_ALERT_SETTINGS,
            sentimentDrop: Math.max(1, n),
            aiPagesThresholds: [80, 90, 100].slice(0, m),
          },
          createdBy: 'U1',
          createdAtMs: NOW,
          pausedReason: null,
          pausedAtMs: null,
          mutedUntilMs: m === 1 ? NOW + 3_600_000 : null,
          lastDigestDate: null,
        };
        expectGoodGrammar('subscriptions', subscriptionsReply([{ sub, snoozes: [], held: n }], 'UTC', NOW));
        expectGoodGrammar('subscribed', subscribedReply(sub, { created: true, defaultTimezone: 'UTC' }));
        expectGoodGrammar('settings', settingsReply(sub, 'UTC', { before: DEFAULT_ALERT_SETTINGS }));
        const home = brandsHomeView(
          [
            {
              brand: {
                ...citationList.brand,
                name,
                website: null,
                active: true,
                role: 'owner',
                location: null,
                location_region: null,
                location_city: null,
              } as never,
              aiPages: { status: 'ok', enabled: true, percentageUsed: n, resetDate: '2025-04-01T00:00:00Z' },
              activity: {
                subscriptions: [sub],
                alerts: [
                  {
                    channelId: 'C1',
                    createdAtMs: NOW,
                    sentAtMs: NOW,
                    status: 'sent',
                    holdUntilMs: null,
                    holdReason: null,
                    alertCount: n,
                    kinds: ['citation_lost'],
                    headline: null,
                    acknowledgedBy: [],
                    snoozedUntilMs: null,
                    snoozedBy: null,
                  },
                ],
              },
              trend: {
                createdAtMs: NOW,
                citations: [{ date: '2025-03-01', value: n }],
                crawlerVisits: [{ date: '2025-02-28', value: m }],
              },
            },
          ],
          NOW,
        );
        expectGoodGrammar('home', home);
      }),
      RUNS,
    );
    expectGoodGrammar('help figures', helpFiguresReply());
  });

  it('the checker itself catches the mistakes it is for', () => {
    expect(onesWithPlural('1 gaps · 1 queries · 1 appearances · 1 more pages')).toHaveLength(4);
    expect(
      onesWithPlural('1 gap · 1 query · 1 appearance · 1 more page · 11 pages · 1.5 points · 1 status'),
    ).toEqual([]);
    expect("Acme Analytics's site").toMatch(/s['’]s\b/);
  });
});
