/**
 * The citation feed of one brand, all pages. The feed is paged like the list view
 * (`limit` up to 500); a day's changes fit in one page, but after a long outage the job
 * asks for up to 30 days and must not act on half of them.
 */
import type { CitationFeedResponse } from '../api/schemas/citations.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';

const FEED_PAGE_LIMIT = 500;
/** 5,000 events; beyond that the rest is left to the next run rather than burning calls. */
const MAX_FEED_PAGES = 10;

const hasMore = (page: CitationFeedResponse): boolean =>
  (page as { pagination?: { has_more?: unknown } }).pagination?.has_more === true;

export async function fetchCitationFeed(
  api: Pick<VisibilityApi, 'getCitationFeed'>,
  brandId: string,
  daysBack: number,
  opts: CallOptions,
): Promise<CitationFeedResponse> {
  const first = await api.getCitationFeed({ brandId, daysBack, limit: FEED_PAGE_LIMIT }, opts);
  const events = [...first.events];
  let page = first;
  for (let n = 1; n < MAX_FEED_PAGES && hasMore(page) && page.events.length > 0; n++) {
    page = await api.getCitationFeed(
      { brandId, daysBack, limit: FEED_PAGE_LIMIT, offset: events.length },
      opts,
    );
    events.push(...page.events);
  }
  return { ...first, events };
}
