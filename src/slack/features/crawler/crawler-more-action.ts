/**
 * "More" on a crawler Live/Pages listing (`vis:crawler:more`): the next rows, replacing the
 * message: the rest of the same service page (its cursor and the rows already shown), or
 * the next page (the service's next cursor).
 */

import type { ActionHandler } from '../../actions/action-handler.js';
import { valueFields } from '../../actions/action-value-fields.js';
import { parseActionValue } from '../../actions/parse-action-value.js';
import { CRAWLER_MORE_ACTION, type CrawlerListQuery } from './crawler-tab-view.js';
import { fetchCrawlerList } from './fetch-crawler-list.js';

export const crawlerMoreAction: ActionHandler = {
  prefix: CRAWLER_MORE_ACTION,
  async run(ctx) {
    const v = valueFields(parseActionValue(ctx.action.value));
    const query: CrawlerListQuery = {
      tab: v.oneOf('tab', ['live', 'pages'] as const),
      range: v.optionalRange('range'),
      view: v.optionalOneOf('view', ['activity', 'pages', 'sessions'] as const),
      lens: v.optionalOneOf('lens', ['pages', 'paths', 'bots'] as const),
      status: v.optionalString('status'),
      intent: v.optionalString('intent'),
      platform: v.optionalString('platform'),
      search: v.optionalString('search'),
      limit: v.optionalInt('limit', 1, 100),
    };
    const brand = await ctx.resolveBrand(v.string('brandId'));
    const reply = await fetchCrawlerList(ctx.deps, brand, query, {
      cursor: v.optionalString('cursor'),
      offset: v.optionalInt('offset', 0, 1_000_000_000) ?? 0,
      skip: v.optionalInt('skip', 0, 100) ?? 0,
    });
    await ctx.respond({ ...reply, replaceOriginal: true });
  },
};
