/**
 * The "View" menu on the crawler's dashboard replies: the overview, the Live tab in each of
 * its views, the Pages tab through each lens, and Access, for the same brand and the same
 * range (every tab takes one). Other filters belong to the listing they were typed for and
 * stay behind.
 */
import type { DateRangeParams } from '../../../api/visibility-api.js';
import { commandText } from '../../commands/args/command-text.js';
import { type ViewChoice, viewSwitcher } from '../../views/view-switcher.js';
import { rangeWord } from './crawler-range.js';

/** Where a reply is: the tab, and the Live view or Pages lens when it has one. */
interface CrawlerPlace {
  tab: 'overview' | 'live' | 'pages' | 'access';
  /** Live: activity (default), pages or sessions; Pages: pages (default), paths or bots. */
  mode?: string | undefined;
}

const PLACES: readonly (Required<Pick<CrawlerPlace, 'tab'>> & { mode?: string; label: string })[] = [
  { tab: 'overview', label: 'Overview' },
  { tab: 'live', mode: 'activity', label: 'Live: visits' },
  { tab: 'live', mode: 'pages', label: 'Live: pages visited' },
  { tab: 'live', mode: 'sessions', label: 'Live: sessions' },
  { tab: 'pages', mode: 'pages', label: 'Pages' },
  { tab: 'pages', mode: 'paths', label: 'Pages: by path' },
  { tab: 'pages', mode: 'bots', label: 'Pages: by crawler' },
  { tab: 'access', label: 'Access' },
];

const DEFAULT_MODE: Partial<Record<CrawlerPlace['tab'], string>> = { live: 'activity', pages: 'pages' };

export function crawlerTabChoices(
  brandId: string,
  current: CrawlerPlace,
  range: DateRangeParams | undefined,
): ViewChoice[] {
  const currentMode = current.mode ?? DEFAULT_MODE[current.tab];
  return PLACES.map((p) => {
    const words = [...(p.tab === 'overview' ? [] : [p.tab]), ...rangeWord(range)];
    // The default view or lens is left unsaid, as people type it.
    const flag = p.mode !== undefined && p.mode !== DEFAULT_MODE[p.tab] ? p.mode : undefined;
    const flags = p.tab === 'live' ? { view: flag } : p.tab === 'pages' ? { lens: flag } : {};
    return {
      label: p.label,
      command: commandText('crawler', brandId, words, flags),
      current: p.tab === current.tab && p.mode === currentMode,
    };
  });
}

/** The select for a crawler reply's actions block. */
export const crawlerSwitcher = (brandId: string, current: CrawlerPlace, range: DateRangeParams | undefined) =>
  viewSwitcher(crawlerTabChoices(brandId, current, range));
