/**
 * One page of the Live or Pages tab (GET /crawler/live, /crawler/pages) as a reply: the
 * command and the More button share it, the button adding the service's cursor.
 */

import type { Brand } from '../../../api/schemas/index.js';
import type { Reply } from '../../../messages/reply.js';
import type { SlackDeps } from '../../slack-deps.js';
import { type CrawlerListQuery, crawlerListReply } from './crawler-tab-view.js';

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export async function fetchCrawlerList(
  deps: Pick<SlackDeps, 'api'>,
  brand: Pick<Brand, 'id' | 'name'>,
  query: CrawlerListQuery,
  page: { cursor?: string; offset?: number } = {},
): Promise<Reply> {
  const common = defined({
    brandId: brand.id,
    ...query.range,
    cursor: page.cursor,
    limit: query.limit,
    intent: query.intent,
    platform: query.platform,
    search: query.search,
  });
  const payload =
    query.tab === 'live'
      ? await deps.api.getCrawlerLive(
          {
            ...common,
            brandId: brand.id,
            ...defined({
              view: query.view,
              httpStatus: query.status === undefined ? undefined : Number(query.status),
            }),
          },
          { lane: 'interactive' },
        )
      : await deps.api.getCrawlerPages(
          { ...common, brandId: brand.id, ...defined({ lens: query.lens, status: query.status }) },
          { lane: 'interactive' },
        );
  return crawlerListReply({ brand, query, payload, offset: page.offset ?? 0 });
}
