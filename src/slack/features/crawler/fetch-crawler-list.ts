/**
 * One page of the Live or Pages tab (GET /crawler/live, /crawler/pages) as a reply: the
 * command and the More button share it, the button adding the service's cursor and the
 * rows of that page already shown. The reply carries the View menu and a Share button that
 * re-runs this very message (the cursor, the rows before it and the rows of its page
 * already shown ride along as `--cursor`, `--offset` and `--skip`).
 */

import type { Brand } from '../../../api/schemas/index.js';
import type { Reply } from '../../../messages/reply.js';
import { utcDay } from '../../../utc-days.js';
import { commandText } from '../../commands/args/command-text.js';
import { withShareButton } from '../../commands/args/with-share-button.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { crawlerListReply } from './crawler-list-view.js';
import { rangeWord } from './crawler-range.js';
import { crawlerSwitcher } from './crawler-switcher.js';
import type { CrawlerListPlace, CrawlerListQuery } from './crawler-tab-view.js';

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export async function fetchCrawlerList(
  deps: Pick<SlackDeps, 'api' | 'clock'>,
  brand: Pick<Brand, 'id' | 'name'>,
  query: CrawlerListQuery,
  page: CrawlerListPlace = {},
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
      ? await deps.api.getCrawlerLive({
          ...common,
          brandId: brand.id,
          ...defined({
            view: query.view,
            httpStatus: query.status === undefined ? undefined : Number(query.status),
          }),
        })
      : await deps.api.getCrawlerPages({
          ...common,
          brandId: brand.id,
          ...defined({ lens: query.lens, status: query.status }),
        });
  const reply = crawlerListReply({ brand, query, payload, place: page, today: utcDay(deps.clock.now()) });
  const share = commandText('crawler', brand.id, [query.tab, ...rangeWord(query.range)], {
    view: query.view,
    lens: query.lens,
    status: query.status,
    intent: query.intent,
    platform: query.platform,
    search: query.search,
    limit: query.limit,
    cursor: page.cursor,
    offset: page.offset ? page.offset : undefined,
    skip: page.skip ? page.skip : undefined,
  });
  return withShareButton(reply, share, [
    crawlerSwitcher(
      brand.id,
      { tab: query.tab, mode: query.tab === 'live' ? query.view : query.lens },
      query.range,
    ),
  ]);
}
