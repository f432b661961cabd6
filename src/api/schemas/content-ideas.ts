import * as z from 'zod/mini';

export const ideaTypes = ['prompt_gap', 'citation_gap', 'position_weak', 'rising', 'campaign'] as const;
export { type IdeaStatus, ideaStatuses } from './values.js';

/** docs/api.md §2 Content idea. `type` stays a string so a new idea type does not break the bot. */
export const contentIdeaSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  query: z.string(),
  insight: z.nullish(z.string()),
  opportunity_score: z.number().check(z.gte(0), z.lte(100)),
  status: z.string(),
  recommended_template: z.nullish(z.string()),
  competitors_appearing: z._default(z.array(z.string()), []),
  ai_models: z._default(z.array(z.string()), []),
  your_position: z.nullish(z.number()),
  created_at: z.optional(z.string()),
});
export type ContentIdea = z.infer<typeof contentIdeaSchema>;

export const offsetPaginationSchema = z.looseObject({
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  has_more: z.boolean(),
});

/** docs/api.md §4.1 */
export const contentIdeasResponseSchema = z.looseObject({
  ideas: z.array(contentIdeaSchema),
  pagination: offsetPaginationSchema,
  meta: z.optional(
    z.looseObject({
      generated_at: z.nullish(z.string()),
      generation_status: z.nullish(z.string()),
      total_opportunities: z.nullish(z.number()),
    }),
  ),
});
export type ContentIdeasResponse = z.infer<typeof contentIdeasResponseSchema>;

/**
 * docs/api.md §4.2. `already_generating` may come back as this 200 body or as a 409/4xx error
 * body; the client folds both into `status: 'already_generating'`.
 */
export const refreshIdeasResponseSchema = z.looseObject({
  status: z.string(),
  message: z.nullish(z.string()),
});
export type RefreshIdeasResult = { status: 'generating' | 'already_generating'; message: string | null };
