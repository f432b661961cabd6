/**
 * The "View" menu on the crawler's dashboard replies: the overview and the Live, Pages and
 * Access tabs for the same brand and the same range (every tab takes one). Filters belong to
 * the tab they were typed for and stay behind.
 */
import type { DateRangeParams } from '../../../api/visibility-api.js';
import { commandText } from '../../commands/args/command-text.js';
import { type ViewChoice, viewSwitcher } from '../../views/view-switcher.js';
import { rangeWord } from './crawler-range.js';

export const CRAWLER_TABS = ['overview', 'live', 'pages', 'access'] as const;
export type CrawlerTab = (typeof CRAWLER_TABS)[number];

const LABELS: Record<CrawlerTab, string> = {
  overview: 'Overview',
  live: 'Live visits',
  pages: 'Pages',
  access: 'Access',
};

export function crawlerTabChoices(
  brandId: string,
  current: CrawlerTab,
  range: DateRangeParams | undefined,
): ViewChoice[] {
  return CRAWLER_TABS.map((tab) => ({
    label: LABELS[tab],
    command: commandText('crawler', brandId, [...(tab === 'overview' ? [] : [tab]), ...rangeWord(range)]),
    current: tab === current,
  }));
}

/** The select for a crawler reply's actions block. */
export const crawlerSwitcher = (brandId: string, current: CrawlerTab, range: DateRangeParams | undefined) =>
  viewSwitcher(crawlerTabChoices(brandId, current, range));
