/**
 * CrawlerHistoryRepo (crawler-history-repo.ts has the contract), for both backends: one
 * `detector_snapshots` row per brand under `crawler_history`, read and merged in the
 * caller's transaction. Two processes recording the same brand at once both write whole
 * histories of the same days; the last one stays, which loses nothing either read.
 */

import type { Kysely } from 'kysely';
import type { DailyVisits } from '../../alerts/crawler-normal-range.js';
import { isCalendarDate } from '../../utc-days.js';
import {
  type CrawlerHistoryRepo,
  type CrawlerHistoryRow,
  mergeCrawlerHistory,
} from '../crawler-history-repo.js';
import type { Database } from '../database.js';
import type { RepoContext } from '../repo-context.js';

const DETECTOR = 'crawler_history';

function parse(state: string | undefined): Record<string, number> {
  if (!state) return {};
  try {
    const value: unknown = JSON.parse(state);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter(
        (e): e is [string, number] =>
          isCalendarDate(e[0]) && typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] >= 0,
      ),
    );
  } catch {
    // A row this code did not write: start again rather than stop the crawler job.
    return {};
  }
}

export function createCrawlerHistoryRepo(ctx: RepoContext): CrawlerHistoryRepo {
  const select = ctx.prepare((db, brandId: string) =>
    db
      .selectFrom('detector_snapshots')
      .select('state')
      .where('brand_id', '=', brandId)
      .where('detector', '=', DETECTOR),
  );
  const read = async (brandId: string) => parse((await select(brandId)).rows[0]?.state);
  const upsertRows = (db: Kysely<Database>, rows: CrawlerHistoryRow[]) =>
    db
      .insertInto('detector_snapshots')
      .values(
        rows.map((r) => ({
          brand_id: r.brandId,
          detector: DETECTOR,
          state: ctx.sql.json(r.history),
          updated_at_ms: r.nowMs,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['brand_id', 'detector']).doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          updated_at_ms: eb.ref('excluded.updated_at_ms'),
        })),
      );
  const write = async (brandId: string, history: Record<string, number>, nowMs: number) => {
    await upsertRows(ctx.db(), [{ brandId, history, nowMs }]).execute();
  };
  return {
    get: read,
    async getMany(brandIds) {
      const histories = new Map<string, DailyVisits>(brandIds.map((id) => [id, {}]));
      if (brandIds.length === 0) return histories;
      const rows = await ctx
        .db()
        .selectFrom('detector_snapshots')
        .select(['brand_id', 'state'])
        .where('brand_id', 'in', [...brandIds])
        .where('detector', '=', DETECTOR)
        .execute();
      for (const r of rows) histories.set(r.brand_id, parse(r.state));
      return histories;
    },
    write,
    async writeMany(rows) {
      // One row per brand, the last: Postgres refuses a statement that updates a row twice.
      const byBrand = new Map(rows.map((r) => [r.brandId, r]));
      if (byBrand.size > 0) await upsertRows(ctx.db(), [...byBrand.values()]).execute();
    },
    async record(brandId, days, endDate, nowMs) {
      const kept = mergeCrawlerHistory(await read(brandId), days, endDate);
      await write(brandId, kept, nowMs);
      return kept;
    },
  };
}
