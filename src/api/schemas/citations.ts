import { z } from 'zod';
import { offsetPaginationSchema } from './content-ideas.js';

export const citationViews = ['list', 'history', 'queries', 'sources', 'feed', 'heatmap'] as const;
export type CitationView = (typeof citationViews)[number];

const brandRefSchema = z.looseObject({ id: z.string(), name: z.string() });

/** API.md §2 Citation */
export const citationSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  domain: z.string(),
  page_title: z.string().nullish(),
  prompt: z.looseObject({ text: z.string(), type: z.string().nullish() }),
  metrics: z.looseObject({
    appearances: z.number(),
    sentiment: z.string().nullish(),
    visibility_score: z.number().nullish(),
  }),
  seo: z.looseObject({ domain_rating: z.number().nullish() }).nullish(),
  source_type: z.string().nullish(),
  search_model: z.string().nullish(),
  date: z.string(),
});
export type Citation = z.infer<typeof citationSchema>;

export const citationListResponseSchema = z.looseObject({
  brand: brandRefSchema,
  citations: z.array(citationSchema),
  pagination: offsetPaginationSchema,
});
export type CitationListResponse = z.infer<typeof citationListResponseSchema>;

export const timeSeriesPointSchema = z.looseObject({
  date: z.string(),
  total_citations: z.number(),
  brand_mentions: z.number(),
  unique_sources: z.number(),
  avg_sentiment: z.number().nullable(),
});
export type TimeSeriesPoint = z.infer<typeof timeSeriesPointSchema>;

export const citationHistoryResponseSchema = z.looseObject({
  brand: brandRefSchema,
  brand_time_series: z.array(timeSeriesPointSchema),
  competitor_time_series: z.record(
    z.string(),
    z.array(z.looseObject({ date: z.string(), mentions: z.number() })),
  ),
  snapshots_available: z.number(),
  date_range: z.looseObject({ start: z.string().nullable(), end: z.string().nullable() }),
});
export type CitationHistoryResponse = z.infer<typeof citationHistoryResponseSchema>;

export const queryInsightSchema = z.looseObject({
  query: z.string(),
  intent: z.string(),
  frequency: z.number(),
  citations_found: z.number(),
  brand_appears: z.boolean(),
  top_sources: z.array(z.unknown()).default([]),
  competitors_appearing: z.array(z.unknown()).default([]),
  is_new: z.boolean(),
  trend: z.string(),
});
export type QueryInsight = z.infer<typeof queryInsightSchema>;

export const queryClusterSchema = z.looseObject({
  intent: z.string(),
  label: z.string(),
  queries: z.array(z.string()),
  total_citations: z.number(),
  brand_appears_in: z.number(),
  coverage_rate: z.number(),
});
export type QueryCluster = z.infer<typeof queryClusterSchema>;

export const citationQueriesResponseSchema = z.looseObject({
  brand: brandRefSchema,
  clusters: z.array(queryClusterSchema),
  top_queries: z.array(queryInsightSchema),
  gap_queries: z.array(z.union([queryInsightSchema, z.string(), z.looseObject({})])),
  coverage_by_intent: z.record(z.string(), z.number()),
  new_queries_count: z.number(),
  rising_queries_count: z.number(),
});
export type CitationQueriesResponse = z.infer<typeof citationQueriesResponseSchema>;

export const sourcePageSchema = z.looseObject({
  url: z.string(),
  h1: z.string().nullish(),
  sentiment: z.number().nullish(),
  mentions_brand: z.boolean(),
  competitors: z.array(z.string()).default([]),
  appearance_count: z.number(),
});
export type SourcePage = z.infer<typeof sourcePageSchema>;

export const citationSourcesResponseSchema = z.looseObject({
  brand: brandRefSchema,
  domain: z.string(),
  total_citations: z.number(),
  unique_pages: z.number(),
  mentions_you: z.boolean(),
  mention_count: z.number(),
  competitors_on_domain: z.array(z.string()),
  avg_sentiment: z.number().nullable(),
  pages: z.array(sourcePageSchema),
  first_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
});
export type CitationSourcesResponse = z.infer<typeof citationSourcesResponseSchema>;

export const feedEventTypes = ['new', 'lost', 'sentiment_changed', 'competitor_appeared'] as const;
export type FeedEventType = (typeof feedEventTypes)[number];

export const feedEventSchema = z.looseObject({
  event_type: z.string(),
  url: z.string(),
  domain: z.string(),
  h1: z.string().nullish(),
  source_type: z.string().nullish(),
  timestamp: z.string(),
  sentiment: z.number().nullish(),
  prev_sentiment: z.number().nullish(),
  mentions_brand: z.boolean().optional(),
  appearance_count: z.number().optional(),
  prompts: z.array(z.string()).optional(),
  competitor: z.string().nullish(),
});
export type FeedEvent = z.infer<typeof feedEventSchema>;

export const citationFeedResponseSchema = z.looseObject({
  brand: brandRefSchema,
  events: z.array(feedEventSchema),
  current_snapshot_date: z.string().nullable(),
  previous_snapshot_date: z.string().nullable(),
  total_current: z.number(),
  total_previous: z.number(),
});
export type CitationFeedResponse = z.infer<typeof citationFeedResponseSchema>;

export const heatmapCellSchema = z.looseObject({
  domain: z.string(),
  brand: z.string(),
  is_present: z.boolean(),
  mention_count: z.number(),
});
export type HeatmapCell = z.infer<typeof heatmapCellSchema>;

export const citationHeatmapResponseSchema = z.looseObject({
  brand: brandRefSchema,
  domains: z.array(z.string()),
  brands: z.array(z.string()),
  your_brand: z.string(),
  cells: z.array(heatmapCellSchema),
  your_coverage: z.number(),
  competitor_coverage: z.record(z.string(), z.number()),
});
export type CitationHeatmapResponse = z.infer<typeof citationHeatmapResponseSchema>;
