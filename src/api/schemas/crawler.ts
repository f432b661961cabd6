import * as z from 'zod/mini';

export { crawlerIntents, pageStatuses, type RangePreset, rangePresets } from './values.js';

const distributionSchema = z.array(
  z.looseObject({ crawler: z.string(), count: z.number(), percentage: z.number() }),
);

/** docs/api.md §4.9 */
export const crawlerOverviewSchema = z.looseObject({
  brand_id: z.string(),
  range: z.looseObject({
    range_preset: z.string(),
    start: z.string(),
    end: z.string(),
    days: z.number(),
    compare_to: z.nullish(z.string()),
  }),
  state: z.looseObject({
    has_tracking_id: z.boolean(),
    has_historical_data: z.boolean(),
    tracking_id: z.nullish(z.string()),
  }),
  hero: z.looseObject({
    total_visits: z.number(),
    total_visits_change: z.nullish(z.number()),
    unique_pages: z.number(),
    unique_pages_change: z.nullish(z.number()),
    avg_daily_visits: z.number(),
    top_crawler: z.nullish(z.string()),
  }),
  chart: z.looseObject({
    series: z.array(
      z.looseObject({ date: z.string(), count: z.number(), by_crawler: z.record(z.string(), z.number()) }),
    ),
    distribution: distributionSchema,
    bot_type_summary: z.looseObject({
      training: z.number(),
      search: z.number(),
      interaction: z.number(),
      agent: z.number(),
      other: z.number(),
    }),
  }),
  breakdown: z.looseObject({
    distribution: distributionSchema,
    top_crawler: z.nullish(z.string()),
    search_bot_visits: z.number(),
    crawl_efficiency_pct: z.number(),
  }),
  top_pages: z.array(z.looseObject({ url: z.string(), count: z.number(), crawlers: z.array(z.string()) })),
  recent_preview: z.array(
    z.looseObject({
      id: z.string(),
      url: z.string(),
      platform: z.string(),
      intent: z.string(),
      visited_at: z.string(),
      status_code: z.number(),
    }),
  ),
});
export type CrawlerOverview = z.infer<typeof crawlerOverviewSchema>;

/**
 * docs/api.md §4.10: payloads of the other crawler endpoints are not documented, so they are
 * passed through as loose objects and rendered generically.
 */
export const loosePayloadSchema = z.looseObject({});
export type LoosePayload = Record<string, unknown>;

/** docs/api.md §10: cursor-paged responses carry `meta: {total, limit, next_cursor}`. */
export const cursorMetaSchema = z.looseObject({
  total: z.nullish(z.number()),
  limit: z.nullish(z.number()),
  next_cursor: z.nullable(z.string()),
});

export const submitStatuses = ['pending', 'success', 'failed'] as const;
