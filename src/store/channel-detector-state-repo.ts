/**
 * Level detectors' state per subscription (channel × brand): crawler (dropping or not) and
 * AI Pages (levels fired in the billing period, enabled, unavailability noted), and which
 * weekly summary was last written (not a detector, but per subscription in the same way).
 *
 * Why per channel when citation state is per brand: these detectors' transitions depend on
 * the channel's own thresholds (`crawler-drop=30` in one channel, 40 in another; AI Pages
 * levels 80/90/100 or just 50), so one shared state would fire one channel's level for the
 * other. Citation transitions do not depend on settings, so they stay per brand.
 *
 * Rows live in `detector_snapshots` under the detector name `<detector>@<channel>`, keyed by
 * brand like every other row there.
 */
import type { AiPagesState } from '../alerts/detect-ai-pages.js';
import type { CrawlerState } from '../alerts/detect-crawler.js';
import type { WeeklyState } from '../alerts/weekly-due.js';

/**
 * The key of a (channel, brand) pair in the answers that read many brands at once: a
 * channel's level state for a brand (crawlerLevelsOf/aiPagesLevelsOf), its snoozes
 * (SnoozesRepo.activeOfBrands).
 */
export const levelKey = (channelId: string, brandId: string): string => `${channelId}\u0000${brandId}`;

/** One channel's level state for a brand, to write with others (putLevels). */
export type LevelStateRow = { channelId: string; brandId: string; nowMs: number } & (
  | { detector: 'crawler'; state: CrawlerState }
  | { detector: 'aiPages'; state: AiPagesState }
);

export interface ChannelDetectorStateRepo {
  getCrawler(channelId: string, brandId: string): Promise<CrawlerState | null>;
  putCrawler(channelId: string, brandId: string, state: CrawlerState, nowMs: number): Promise<void>;
  getAiPages(channelId: string, brandId: string): Promise<AiPagesState | null>;
  putAiPages(channelId: string, brandId: string, state: AiPagesState, nowMs: number): Promise<void>;
  /**
   * Every channel's crawler state for these brands, by levelKey(channel, brand), in one
   * statement (a batch of brands reads them together in its transaction).
   */
  crawlerLevelsOf(brandIds: readonly string[]): Promise<Map<string, CrawlerState>>;
  /** As crawlerLevelsOf, for the AI Pages states. */
  aiPagesLevelsOf(brandIds: readonly string[]): Promise<Map<string, AiPagesState>>;
  /** Several putCrawler/putAiPages in one statement (a batch of brands); the last of a key wins. */
  putLevels(rows: readonly LevelStateRow[]): Promise<void>;
  /** The weekly summary's state: the last week written and the schedule it was written under. */
  getWeekly(channelId: string, brandId: string): Promise<WeeklyState | null>;
  putWeekly(channelId: string, brandId: string, state: WeeklyState, nowMs: number): Promise<void>;
  /** Forgets the channel's level state for a brand (unsubscribe: a new subscription starts afresh). */
  remove(channelId: string, brandId: string): Promise<number>;
}
