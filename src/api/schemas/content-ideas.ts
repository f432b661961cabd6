import { z } from 'zod';

export const ideaTypes = ['prompt_gap', 'citation_gap', 'position_weak', 'rising', 'campaign'] as const;
export const ideaStatuses = ['active', 'dismissed', 'implemented'] as const;
export type IdeaStatus = (typeof ideaStatuses)[number];

/** API.md §2 Content idea. `type` stays a string so a new idea type does not break the bot. */
export const contentIdeaSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  query: z.string(),
  insight: z.string().nullish(),
  opportunity_score: z.number().min(0).max(100),
  status: z.string(),
  recommended_template: z.string().nullish(),
  competitors_appearing: z.array(z.string()).default([]),
  ai_models: z.array(z.string()).default([]),
  your_position: z.number().nullish(),
  created_at: z.string().optional(),
});
export type ContentIdea = z.infer<typeof contentIdeaSchema>;

export const offsetPaginationSchema = z.looseObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  has_more: z.boolean(),
});
export type OffsetPagination = z.infer<typeof offsetPaginationSchema>;

/** API.md §4.1 */
export const contentIdeasResponseSchema = z.looseObject({
  ideas: z.array(contentIdeaSchema),
  pagination: offsetPaginationSchema,
  meta: z
    .looseObject({
      generated_at: z.string().nullish(),
      generation_status: z.string().nullish(),
      total_opportunities: z.number().nullish(),
    })
    .optional(),
});
export type ContentIdeasResponse = z.infer<typeof contentIdeasResponseSchema>;

/**
 * API.md §4.2. `already_generating` may come back as this 200 body or as a 409/4xx error
 * body; the client folds both into `status: 'already_generating'`.
 */
export const refreshIdeasResponseSchema = z.looseObject({
  status: z.string(),
  message: z.string().nullish(),
});
export type RefreshIdeasResult = { status: 'generating' | 'already_generating'; message: string | null };
