/**
 * Last state of the level detectors per brand: crawler (dropping or not) and AI Pages
 * (billing period, levels fired, enabled, unavailability noted). JSON, because the
 * detectors own these shapes and a new field must not need a migration.
 */
import { type AiPagesState, INITIAL_AI_PAGES_STATE } from '../alerts/detect-ai-pages.js';
import { type CrawlerState, INITIAL_CRAWLER_STATE } from '../alerts/detect-crawler.js';
import type { Db } from './open-database.js';

export interface SnapshotsRepo {
  getCrawler(brandId: string): CrawlerState | null;
  putCrawler(brandId: string, state: CrawlerState, nowMs: number): void;
  getAiPages(brandId: string): AiPagesState | null;
  putAiPages(brandId: string, state: AiPagesState, nowMs: number): void;
  /** Forgets a brand's snapshots (no channel watches it any more). */
  remove(brandId: string): number;
}

type Detector = 'crawler' | 'ai_pages';

export function createSnapshotsRepo(db: Db): SnapshotsRepo {
  const select = db
    .prepare('SELECT state FROM detector_snapshots WHERE brand_id = ? AND detector = ?')
    .pluck();
  const upsert = db.prepare(
    `INSERT INTO detector_snapshots (brand_id, detector, state, updated_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (brand_id, detector) DO UPDATE SET state = excluded.state, updated_at_ms = excluded.updated_at_ms`,
  );
  const del = db.prepare('DELETE FROM detector_snapshots WHERE brand_id = ?');
  // Stored over the initial state, so a field added in a later version gets its start value.
  function get<T extends object>(brandId: string, detector: Detector, initial: T): T | null {
    const raw = select.get(brandId, detector) as string | undefined;
    return raw === undefined ? null : { ...initial, ...(JSON.parse(raw) as Partial<T>) };
  }
  function put(brandId: string, detector: Detector, state: unknown, nowMs: number): void {
    upsert.run(brandId, detector, JSON.stringify(state), nowMs);
  }
  return {
    getCrawler: (brandId) => get<CrawlerState>(brandId, 'crawler', INITIAL_CRAWLER_STATE),
    putCrawler: (brandId, state, nowMs) => put(brandId, 'crawler', state, nowMs),
    getAiPages: (brandId) => get<AiPagesState>(brandId, 'ai_pages', INITIAL_AI_PAGES_STATE),
    putAiPages: (brandId, state, nowMs) => put(brandId, 'ai_pages', state, nowMs),
    remove: (brandId) => del.run(brandId).changes,
  };
}
