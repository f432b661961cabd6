/**
 * The crawler job's one overview request: a custom range over the 14 whole days ending
 * yesterday (UTC, the dates the API reports), split by the detector into the last 7 vs the
 * previous 7. Today is left out because it is still running: counting a partial day would
 * read as a fall every morning. The digest's crawler section reads the same periods.
 */
import { type CrawlerPeriods, periodsFromOverview } from '../alerts/detect-crawler.js';
import type { CallOptions, VisibilityApi } from '../api/visibility-api.js';
import { dateOfDay, epochDay } from '../utc-days.js';

const CRAWLER_RANGE_DAYS = 14;

interface CrawlerRange {
  startDate: string;
  endDate: string;
}

export function crawlerRange(nowMs: number): CrawlerRange {
  const today = epochDay(nowMs);
  return { startDate: dateOfDay(today - CRAWLER_RANGE_DAYS), endDate: dateOfDay(today - 1) };
}

/** The overview over crawlerRange(nowMs), as the last 7 days vs the 7 before. */
export async function fetchCrawlerPeriods(
  api: Pick<VisibilityApi, 'getCrawlerOverview'>,
  brandId: string,
  nowMs: number,
  opts: CallOptions,
): Promise<CrawlerPeriods> {
  const range = crawlerRange(nowMs);
  const overview = await api.getCrawlerOverview(
    { brandId, rangePreset: 'custom', startDate: range.startDate, endDate: range.endDate },
    opts,
  );
  return periodsFromOverview(overview, range.endDate);
}
