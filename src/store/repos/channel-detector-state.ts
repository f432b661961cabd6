/**
 * ChannelDetectorStateRepo (channel-detector-state-repo.ts has the contract), for both
 * backends: rows of `detector_snapshots` under `<detector>@<channel>`, the state as JSON,
 * read over the detector's initial state so a field added in a later version gets its
 * start value. Each put is one upsert, so processes writing the same row at once leave one
 * whole state (the last), never an error.
 */

import { type Insertable, type Kysely, sql } from 'kysely';
import { type AiPagesState, INITIAL_AI_PAGES_STATE } from '../../alerts/detect-ai-pages.js';
import { type CrawlerState, INITIAL_CRAWLER_STATE } from '../../alerts/detect-crawler.js';
import type { WeeklyState } from '../../alerts/weekly-due.js';
import { type ChannelDetectorStateRepo, levelKey } from '../channel-detector-state-repo.js';
import type { Database } from '../database.js';
import { count, type RepoContext } from '../repo-context.js';

type Detector = 'crawler' | 'ai_pages' | 'weekly';
const DETECTORS: readonly Detector[] = ['crawler', 'ai_pages', 'weekly'];
const NO_WEEKLY: WeeklyState = { lastDate: null, schedule: null };
const scoped = (detector: Detector, channelId: string) => `${detector}@${channelId}`;

// Long by design: the prepared statements, then one short method per query of the detectors' per-channel state (one, a batch, writes, the weekly schedule); each reads alone.
export function createChannelDetectorStateRepo(ctx: RepoContext): ChannelDetectorStateRepo {
  // Every level job reads and writes one per brand and channel: prepared.
  const select = ctx.prepare((db, brandId: string, detector: string) =>
    db
      .selectFrom('detector_snapshots')
      .select('state')
      .where('brand_id', '=', brandId)
      .where('detector', '=', detector),
  );
  const upsertRows = (db: Kysely<Database>, rows: Insertable<Database['detector_snapshots']>[]) =>
    db
      .insertInto('detector_snapshots')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['brand_id', 'detector']).doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          updated_at_ms: eb.ref('excluded.updated_at_ms'),
        })),
      );
  const upsert = ctx.prepare((db, brandId: string, detector: string, state: string, nowMs: number) =>
    upsertRows(db, [{ brand_id: brandId, detector, state, updated_at_ms: nowMs }]),
  );
  const get = async <T extends object>(
    channelId: string,
    brandId: string,
    detector: Detector,
    initial: T,
  ) => {
    const r = (await select(brandId, scoped(detector, channelId))).rows[0];
    return r ? { ...initial, ...(JSON.parse(r.state) as Partial<T>) } : null;
  };
  const put = async (
    channelId: string,
    brandId: string,
    detector: Detector,
    state: unknown,
    nowMs: number,
  ) => {
    await upsert(brandId, scoped(detector, channelId), ctx.sql.json(state), nowMs);
  };
  /** The `detector` states of these brands, every channel's, over `initial`, by levelKey. */
  const levelsOf = async <T extends object>(
    brandIds: readonly string[],
    detector: Detector,
    initial: T,
  ): Promise<Map<string, T>> => {
    const out = new Map<string, T>();
    if (brandIds.length === 0) return out;
    const prefix = scoped(detector, '');
    // The detector's rows only (not the brand's other detectors' or its crawler history);
    // `_` in a detector's name is a LIKE wildcard, so it is escaped.
    const pattern = `${prefix.replaceAll('_', '\\_')}%`;
    const rows = await ctx
      .db()
      .selectFrom('detector_snapshots')
      .select(['brand_id', 'detector', 'state'])
      .where('brand_id', 'in', [...new Set(brandIds)])
      .where(sql<boolean>`detector LIKE ${pattern} ESCAPE '\\'`)
      .execute();
    for (const r of rows) {
      if (!r.detector.startsWith(prefix)) continue;
      const channelId = r.detector.slice(prefix.length);
      out.set(levelKey(channelId, r.brand_id), { ...initial, ...(JSON.parse(r.state) as Partial<T>) });
    }
    return out;
  };
  return {
    crawlerLevelsOf: (brandIds) => levelsOf<CrawlerState>(brandIds, 'crawler', INITIAL_CRAWLER_STATE),
    aiPagesLevelsOf: (brandIds) => levelsOf<AiPagesState>(brandIds, 'ai_pages', INITIAL_AI_PAGES_STATE),
    getCrawler: (c, b) => get<CrawlerState>(c, b, 'crawler', INITIAL_CRAWLER_STATE),
    putCrawler: (c, b, state, nowMs) => put(c, b, 'crawler', state, nowMs),
    getAiPages: (c, b) => get<AiPagesState>(c, b, 'ai_pages', INITIAL_AI_PAGES_STATE),
    putAiPages: (c, b, state, nowMs) => put(c, b, 'ai_pages', state, nowMs),
    async putLevels(rows) {
      // One row per key, the last: Postgres refuses a statement that updates a row twice.
      const byKey = new Map<string, Insertable<Database['detector_snapshots']>>();
      for (const r of rows) {
        const detector = scoped(r.detector === 'crawler' ? 'crawler' : 'ai_pages', r.channelId);
        byKey.set(`${detector}\u0000${r.brandId}`, {
          brand_id: r.brandId,
          detector,
          state: ctx.sql.json(r.state),
          updated_at_ms: r.nowMs,
        });
      }
      if (byKey.size > 0) await upsertRows(ctx.db(), [...byKey.values()]).execute();
    },
    getWeekly: (c, b) => get<WeeklyState>(c, b, 'weekly', NO_WEEKLY),
    putWeekly: (c, b, state, nowMs) => put(c, b, 'weekly', state, nowMs),
    async remove(c, b) {
      const r = await ctx
        .db()
        .deleteFrom('detector_snapshots')
        .where('brand_id', '=', b)
        .where(
          'detector',
          'in',
          DETECTORS.map((d) => scoped(d, c)),
        )
        .executeTakeFirst();
      return count(r.numDeletedRows);
    },
  };
}
