/**
 * Level detectors' state per subscription (channel × brand): crawler (dropping or not) and
 * AI Pages (levels fired in the billing period, enabled, unavailability noted).
 *
 * Why per channel when citation state is per brand: these detectors' transitions depend on
 * the channel's own thresholds (`crawler-drop=30` in one channel, 40 in another; AI Pages
 * levels 80/90/100 or just 50), so one shared state would fire one channel's level for the
 * other. Citation transitions do not depend on settings, so they stay per brand.
 *
 * Rows live in `detector_snapshots` under the detector name `<detector>@<channel>`, keyed by
 * brand like every other row there.
 */
import { type AiPagesState, INITIAL_AI_PAGES_STATE } from '../alerts/detect-ai-pages.js';
import { type CrawlerState, INITIAL_CRAWLER_STATE } from '../alerts/detect-crawler.js';
import { asyncRepo } from './async-repo.js';
import { detectorSnapshotRows } from './detector-snapshot-rows.js';
import type { Db } from './open-database.js';

export interface ChannelDetectorStateRepo {
  getCrawler(channelId: string, brandId: string): Promise<CrawlerState | null>;
  putCrawler(channelId: string, brandId: string, state: CrawlerState, nowMs: number): Promise<void>;
  getAiPages(channelId: string, brandId: string): Promise<AiPagesState | null>;
  putAiPages(channelId: string, brandId: string, state: AiPagesState, nowMs: number): Promise<void>;
  /** Forgets the channel's level state for a brand (unsubscribe: a new subscription starts afresh). */
  remove(channelId: string, brandId: string): Promise<number>;
}

type Detector = 'crawler' | 'ai_pages';
const DETECTORS: readonly Detector[] = ['crawler', 'ai_pages'];
const scoped = (detector: Detector, channelId: string) => `${detector}@${channelId}`;

export function createChannelDetectorStateRepo(db: Db): ChannelDetectorStateRepo {
  const rows = detectorSnapshotRows(db);
  const del = db.prepare('DELETE FROM detector_snapshots WHERE brand_id = ? AND detector = ?');
  const get = <T extends object>(channelId: string, brandId: string, detector: Detector, initial: T) =>
    rows.get(brandId, scoped(detector, channelId), initial);
  const put = (channelId: string, brandId: string, detector: Detector, state: unknown, nowMs: number) =>
    rows.put(brandId, scoped(detector, channelId), state, nowMs);
  return asyncRepo<ChannelDetectorStateRepo>(db, {
    getCrawler: (c, b) => get<CrawlerState>(c, b, 'crawler', INITIAL_CRAWLER_STATE),
    putCrawler: (c, b, state, nowMs) => put(c, b, 'crawler', state, nowMs),
    getAiPages: (c, b) => get<AiPagesState>(c, b, 'ai_pages', INITIAL_AI_PAGES_STATE),
    putAiPages: (c, b, state, nowMs) => put(c, b, 'ai_pages', state, nowMs),
    remove: (c, b) => DETECTORS.reduce((n, d) => n + del.run(b, scoped(d, c)).changes, 0),
  });
}
