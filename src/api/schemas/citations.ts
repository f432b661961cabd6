import * as z from 'zod/mini';
import { compiledLooseObject } from './compiled-object.js';
import { offsetPaginationSchema } from './content-ideas.js';

export const citationViews = ['list', 'history', 'queries', 'sources', 'feed', 'heatmap'] as const;
export type CitationView = (typeof citationViews)[number];

const brandRefSchema = z.looseObject({ id: z.string(), name: z.string() });

/** docs/api.md §2 Citation; a list page holds up to 500 (compiled-object.ts). */
export const citationSchema = compiledLooseObject({
  id: z.string(),
  url: z.string(),
  domain: z.string(),
  page_title: z.nullish(z.string()),
  prompt: compiledLooseObject({ text: z.string(), type: z.nullish(z.string()) }),
  metrics: compiledLooseObject({
    appearances: z.number(),
    sentiment: z.nullish(z.string()),
    visibility_score: z.nullish(z.number()),
  }),
  seo: z.nullish(compiledLooseObject({ domain_rating: z.nullish(z.number()) })),
  source_type: z.nullish(z.string()),
  search_model: z.nullish(z.string()),
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
  avg_sentiment: z.nullable(z.number()),
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
  date_range: z.looseObject({ start: z.nullable(z.string()), end: z.nullable(z.string()) }),
});
export type CitationHistoryResponse = z.infer<typeof citationHistoryResponseSchema>;

export const queryInsightSchema = z.looseObject({
  query: z.string(),
  intent: z.string(),
  frequency: z.number(),
  citations_found: z.number(),
  brand_appears: z.boolean(),
  top_sources: z._default(z.array(z.unknown()), []),
  competitors_appearing: z._default(z.array(z.unknown()), []),
  is_new: z.boolean(),
  trend: z.string(),
});
export type QueryInsight = z.infer<typeof queryInsightSchema>;

const queryClusterSchema = z.looseObject({
  intent: z.string(),
  label: z.string(),
  queries: z.array(z.string()),
  total_citations: z.number(),
  brand_appears_in: z.number(),
  coverage_rate: z.number(),
});

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
  h1: z.nullish(z.string()),
  sentiment: z.nullish(z.number()),
  mentions_brand: z.boolean(),
  competitors: z._default(z.array(z.string()), []),
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
  avg_sentiment: z.nullable(z.number()),
  pages: z.array(sourcePageSchema),
  first_seen: z.nullable(z.string()),
  last_seen: z.nullable(z.string()),
});
export type CitationSourcesResponse = z.infer<typeof citationSourcesResponseSchema>;

export const feedEventTypes = ['new', 'lost', 'sentiment_changed', 'competitor_appeared'] as const;

/** A feed page holds up to 500 of these, validated every citations run (compiled-object.ts). */
export const feedEventSchema = compiledLooseObject({
  event_type: z.string(),
  url: z.string(),
  domain: z.string(),
  h1: z.nullish(z.string()),
  source_type: z.nullish(z.string()),
  timestamp: z.string(),
  sentiment: z.nullish(z.number()),
  prev_sentiment: z.nullish(z.number()),
  mentions_brand: z.optional(z.boolean()),
  appearance_count: z.optional(z.number()),
  prompts: z.optional(z.array(z.string())),
  competitor: z.nullish(z.string()),
});
export type FeedEvent = z.infer<typeof feedEventSchema>;

export const citationFeedResponseSchema = z.looseObject({
  brand: brandRefSchema,
  events: z.array(feedEventSchema),
  current_snapshot_date: z.nullable(z.string()),
  previous_snapshot_date: z.nullable(z.string()),
  total_current: z.number(),
  total_previous: z.number(),
});
export type CitationFeedResponse = z.infer<typeof citationFeedResponseSchema>;

const heatmapCellSchema = z.looseObject({
  domain: z.string(),
  brand: z.string(),
  is_present: z.boolean(),
  mention_count: z.number(),
});

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
