/**
 * Last state of the level detectors per brand: crawler (dropping or not) and AI Pages
 * (billing period, levels fired, enabled, unavailability noted), as detector-snapshot-rows.ts
 * stores them.
 */
import { type AiPagesState, INITIAL_AI_PAGES_STATE } from '../alerts/detect-ai-pages.js';
import { type CrawlerState, INITIAL_CRAWLER_STATE } from '../alerts/detect-crawler.js';
import { detectorSnapshotRows } from './detector-snapshot-rows.js';
import type { Db } from './open-database.js';

export interface SnapshotsRepo {
  getCrawler(brandId: string): CrawlerState | null;
  putCrawler(brandId: string, state: CrawlerState, nowMs: number): void;
  getAiPages(brandId: string): AiPagesState | null;
  putAiPages(brandId: string, state: AiPagesState, nowMs: number): void;
  /** Forgets a brand's snapshots (no channel watches it any more). */
  remove(brandId: string): number;
}

export function createSnapshotsRepo(db: Db): SnapshotsRepo {
  const rows = detectorSnapshotRows(db);
  const del = db.prepare('DELETE FROM detector_snapshots WHERE brand_id = ?');
  return {
    getCrawler: (brandId) => rows.get<CrawlerState>(brandId, 'crawler', INITIAL_CRAWLER_STATE),
    putCrawler: (brandId, state, nowMs) => rows.put(brandId, 'crawler', state, nowMs),
    getAiPages: (brandId) => rows.get<AiPagesState>(brandId, 'ai_pages', INITIAL_AI_PAGES_STATE),
    putAiPages: (brandId, state, nowMs) => rows.put(brandId, 'ai_pages', state, nowMs),
    remove: (brandId) => del.run(brandId).changes,
  };
}
