/**
 * ChannelDetectorStateRepo on Postgres (channel-detector-state-repo.ts has the contract):
 * the same `detector_snapshots` rows under `<detector>@<channel>`, the state as jsonb, read
 * over the detector's initial state so a field added in a later version gets its start
 * value. Each put is one upsert, so replicas writing the same row at once leave one whole
 * state (the last), never an error.
 */
import { type AiPagesState, INITIAL_AI_PAGES_STATE } from '../../alerts/detect-ai-pages.js';
import { type CrawlerState, INITIAL_CRAWLER_STATE } from '../../alerts/detect-crawler.js';
import type { ChannelDetectorStateRepo } from '../channel-detector-state-repo.js';
import type { PgPool } from './create-pool.js';
import { pgJson, pgText } from './pg-text.js';
import { pgExecutor } from './pg-transaction.js';

type Detector = 'crawler' | 'ai_pages';
const DETECTORS: readonly Detector[] = ['crawler', 'ai_pages'];
const scoped = (detector: Detector, channelId: string) => pgText(`${detector}@${channelId}`);

export function createPgChannelDetectorStateRepo(pool: PgPool): ChannelDetectorStateRepo {
  const db = () => pgExecutor(pool);

  const get = async <T extends object>(
    channelId: string,
    brandId: string,
    detector: Detector,
    initial: T,
  ): Promise<T | null> => {
    const { rows } = await db().query<{ state: Partial<T> }>(
      'SELECT state FROM detector_snapshots WHERE brand_id = $1 AND detector = $2',
      [pgText(brandId), scoped(detector, channelId)],
    );
    return rows[0] ? { ...initial, ...rows[0].state } : null;
  };

  const put = async (
    channelId: string,
    brandId: string,
    detector: Detector,
    state: unknown,
    nowMs: number,
  ): Promise<void> => {
    await db().query(
      `INSERT INTO detector_snapshots (brand_id, detector, state, updated_at_ms) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (brand_id, detector) DO UPDATE
         SET state = EXCLUDED.state, updated_at_ms = EXCLUDED.updated_at_ms`,
      [pgText(brandId), scoped(detector, channelId), pgJson(state), nowMs],
    );
  };

  return {
    getCrawler: (c, b) => get<CrawlerState>(c, b, 'crawler', INITIAL_CRAWLER_STATE),
    putCrawler: (c, b, state, nowMs) => put(c, b, 'crawler', state, nowMs),
    getAiPages: (c, b) => get<AiPagesState>(c, b, 'ai_pages', INITIAL_AI_PAGES_STATE),
    putAiPages: (c, b, state, nowMs) => put(c, b, 'ai_pages', state, nowMs),
    async remove(c, b) {
      const { rowCount } = await db().query(
        'DELETE FROM detector_snapshots WHERE brand_id = $1 AND detector = ANY($2::text[])',
        [pgText(b), DETECTORS.map((d) => scoped(d, c))],
      );
      return rowCount ?? 0;
    },
  };
}
