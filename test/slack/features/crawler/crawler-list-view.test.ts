import { describe, expect, it } from 'vitest';
import { BLOCK_KIT_LIMITS as L } from '../../../../src/messages/block-kit-limit-table.js';
import { crawlerListReply } from '../../../../src/slack/features/crawler/crawler-list-view.js';
import {
  CRAWLER_MORE_ACTION,
  type CrawlerListQuery,
} from '../../../../src/slack/features/crawler/crawler-tab-view.js';
import { MESSAGE_BUDGET } from '../../../../src/slack/views/take-lines-within.js';

const brand = { id: '0b8e2a4c-1d3f-4a5b-8c7d-9e0f1a2b3c4d', name: 'Acme' };
const items = Array.from({ length: 60 }, (_, i) => ({
  url: `https://www.acme.example/blog/a-long-article-about-product-analytics-number-${i}`,
  title: `A long article about product analytics, part ${i}`,
  visits: 1000 - i,
  crawlers: ['GPTBot', 'ClaudeBot', 'PerplexityBot'],
  status_codes: { '200': 900 - i, '404': 3 },
}));

/** A query whose More button fits at this page's offsets but not at the largest ones. */
function queryNearTheButtonLimit(): CrawlerListQuery {
  const query: CrawlerListQuery = { tab: 'live', view: 'activity', search: '' };
  const json = (offset: number, skip: number) =>
    JSON.stringify({ ...query, brandId: brand.id, offset, skip }).length;
  query.search = 'x'.repeat(L.buttonValue - json(0, 99) - 1);
  expect(json(0, 99)).toBeLessThanOrEqual(L.buttonValue);
  expect(json(1e9, 1e3)).toBeGreaterThan(L.buttonValue);
  return query;
}

describe('crawler listings: the More button', () => {
  it('keeps room for a More button that fits only at small offsets, so the reply stays within its budget', () => {
    const reply = crawlerListReply({ brand, query: queryNearTheButtonLimit(), payload: { items } });
    const more = reply.blocks.at(-1) as { elements?: { action_id: string }[] };
    expect(more.elements?.[0]?.action_id).toBe(CRAWLER_MORE_ACTION);
    // The builder's budget leaves room for the Share and View blocks the subcommand adds.
    expect(JSON.stringify(reply.blocks).length).toBeLessThanOrEqual(MESSAGE_BUDGET);
  });
});
