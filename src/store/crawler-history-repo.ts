/**
 * Each brand's AI crawler visits per day, as the crawler job read them from the overview's
 * daily series (14 days a run), kept so the usual range (src/alerts/crawler-normal-range.ts)
 * can learn from more weeks than one request returns. One row per brand in
 * `detector_snapshots` under the detector name `crawler_history` (a brand's, not a
 * channel's: every channel judges the same visits), holding the last
 * CRAWLER_HISTORY_DAYS days as JSON; no schema change.
 */
import type { DailyVisits } from '../alerts/crawler-normal-range.js';
import { addDays } from '../utc-days.js';

/** Days kept: the 8 earlier weeks the range looks back on, the week judged, and a week of slack. */
export const CRAWLER_HISTORY_DAYS = 70;

/** One brand's whole history, to write with others (writeMany). */
export interface CrawlerHistoryRow {
  brandId: string;
  history: DailyVisits;
  nowMs: number;
}

export interface CrawlerHistoryRepo {
  /**
   * Merges `days` into the brand's history (a day read again replaces the stored count: the
   * service may still revise yesterday) and returns the whole history, trimmed to the
   * CRAWLER_HISTORY_DAYS days ending `endDate`.
   */
  record(brandId: string, days: DailyVisits, endDate: string, nowMs: number): Promise<DailyVisits>;
  /**
   * Stores `history` as the brand's whole history: what `record` stores, for a caller that
   * already merged it (mergeCrawlerHistory) over the history it read, sparing a read.
   */
  write(brandId: string, history: DailyVisits, nowMs: number): Promise<void>;
  /** Several `write`s in one statement (a batch of brands); the last of a brand wins. */
  writeMany(rows: readonly CrawlerHistoryRow[]): Promise<void>;
  /** The stored history (empty when none). */
  get(brandId: string): Promise<DailyVisits>;
  /** `get` of several brands in one statement: each brand's stored history, by brand (empty when none). */
  getMany(brandIds: readonly string[]): Promise<Map<string, DailyVisits>>;
}

/**
 * What `record` keeps: `days` laid over the stored history, trimmed to the
 * CRAWLER_HISTORY_DAYS days ending `endDate`, in date order. Pure, so a job can judge a
 * brand's visits against the history it is about to write before it writes it.
 */
export function mergeCrawlerHistory(stored: DailyVisits, days: DailyVisits, endDate: string): DailyVisits {
  const first = addDays(endDate, 1 - CRAWLER_HISTORY_DAYS);
  return Object.fromEntries(
    Object.entries({ ...stored, ...days })
      .filter(([d]) => d >= first && d <= endDate)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
