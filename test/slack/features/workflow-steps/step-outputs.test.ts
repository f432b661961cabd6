/**
 * What the steps hand to the next steps of a workflow is data from web pages and the
 * service: escaped like every text the bot sends (a page titled `<!channel>` must not ping
 * a channel in the workflow's message), each lost page once, newest loss first; and a brand
 * without AI Pages leaves that output out and says so. The API is the seam: a stand-in
 * answers the two or four calls a step makes.
 */
import { describe, expect, it } from 'vitest';
import { createBrandCache } from '../../../../src/api/brand-cache.js';
import { NoEntitlementError } from '../../../../src/api/errors.js';
import type { VisibilityApi } from '../../../../src/api/visibility-api.js';
import { silentLogger } from '../../../../src/logger.js';
import { brandVisibilityStep } from '../../../../src/slack/features/workflow-steps/brand-visibility-step.js';
import { lostCitationsStep } from '../../../../src/slack/features/workflow-steps/lost-citations-step.js';
import type { SlackDeps } from '../../../../src/slack/kit/slack-deps.js';
import type { StepContext } from '../../../../src/slack/steps/workflow-step.js';
import { manualClock } from '../../../helpers/manual-clock.js';

const BRAND = { id: 'b-1', name: 'Acme & Sons <Ltd>', active: true, role: 'owner' as const };
const clock = manualClock(Date.UTC(2026, 10, 24, 9, 0, 0));

function contextFor(api: Partial<VisibilityApi>, inputs: Record<string, unknown>): StepContext {
  const full = { getBrands: async () => ({ brands: [BRAND] }), ...api } as unknown as VisibilityApi;
  const deps = { api: full, brandCache: createBrandCache(full, clock), clock } as unknown as SlackDeps;
  return {
    deps,
    inputs,
    client: {} as StepContext['client'],
    logger: silentLogger(),
    executionId: 'Fx1',
    ensureMember: async () => {},
  };
}

const event = (event_type: string, url: string, h1: string | null, timestamp: string) => ({
  event_type,
  url,
  domain: new URL(url).hostname,
  h1,
  timestamp,
});

describe('List lost citations', () => {
  it('escapes titles and addresses, lists each lost page once, newest first', async () => {
    const outputs = await lostCitationsStep.run(
      contextFor(
        {
          getCitationFeed: async () =>
            ({
              events: [
                event('lost', 'https://a.example/x?a=1&b=2', '<!channel> deal', '2026-11-20T00:00:00Z'),
                event('new', 'https://b.example/', 'New page', '2026-11-23T00:00:00Z'),
                event('lost', 'https://c.example/', null, '2026-11-22T00:00:00Z'),
                event('lost', 'https://a.example/x?a=1&b=2', 'again', '2026-11-19T00:00:00Z'),
              ],
            }) as never,
        },
        { brand: 'acme', days: '3' },
      ),
    );
    expect(outputs).toEqual({
      lost_count: 2,
      urls: ['https://c.example/', 'https://a.example/x?a=1&amp;b=2'],
      titles: ['c.example', '&lt;!channel&gt; deal'],
      summary: [
        'Acme &amp; Sons &lt;Ltd&gt; lost 2 cited pages in the last 3 days:',
        '• c.example — https://c.example/',
        '• &lt;!channel&gt; deal — https://a.example/x?a=1&amp;b=2',
      ].join('\n'),
    });
  });

  it('says so when nothing was lost', async () => {
    const outputs = await lostCitationsStep.run(
      contextFor({ getCitationFeed: async () => ({ events: [] }) as never }, { brand: 'Acme', days: 1 }),
    );
    expect(outputs).toMatchObject({ lost_count: 0, urls: [], titles: [] });
    expect(outputs['summary']).toBe('Acme &amp; Sons &lt;Ltd&gt; lost no cited pages in the last day.');
  });
});

describe('Get brand visibility', () => {
  it('leaves AI Pages out, and says so, for a brand without it', async () => {
    const outputs = await brandVisibilityStep.run(
      contextFor(
        {
          getCitationList: async () => ({ pagination: { total: 1234 } }) as never,
          getCitationHistory: async () =>
            ({
              brand_time_series: [
                { date: '2026-11-22', total_citations: 10, brand_mentions: 4 },
                { date: '2026-11-23', total_citations: 12, brand_mentions: 5 },
              ],
            }) as never,
          // The 7 whole days ending yesterday count; the day before them belongs to the earlier week.
          getCrawlerOverview: async () =>
            ({
              chart: {
                series: [
                  { date: '2026-11-23', count: 70, by_crawler: { GPTBot: 70 } },
                  { date: '2026-11-16', count: 9, by_crawler: { GPTBot: 9 } },
                ],
              },
            }) as never,
          getAiPages: async () => {
            throw new NoEntitlementError('no AI Pages', { endpoint: 'GET /ai-pages', status: 403 });
          },
        },
        { brand: 'acme' },
      ),
    );
    expect(outputs).toEqual({
      brand_name: 'Acme &amp; Sons &lt;Ltd&gt;',
      cited_pages: 1234,
      citations: 12,
      brand_mentions: 5,
      ai_crawler_visits: 70,
      summary:
        'Acme &amp; Sons &lt;Ltd&gt;: 1,234 cited pages, 12 citations and 5 brand mentions on Nov 23, 2026; 70 AI crawler visits in the last 7 days; no AI Pages.',
    });
  });
});
