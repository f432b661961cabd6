import * as z from 'zod/mini';

/** docs/api.md §2 AI Pages record */
const aiPagesConfigSchema = z.looseObject({
  enabled: z.boolean(),
  domain: z.string(),
  platform: z.nullish(z.string()),
  features: z._default(z.array(z.string()), []),
  crawlers: z._default(z.array(z.string()), []),
});

export const aiPagesUsageSchema = z.looseObject({
  requests_this_month: z.number(),
  requests_limit: z.number(),
  percentage_used: z.number().check(z.gte(0), z.lte(100)),
  reset_date: z.string(),
});
export type AiPagesUsage = z.infer<typeof aiPagesUsageSchema>;

export const aiPagesRecordSchema = z.looseObject({
  brand: z.looseObject({ id: z.string(), name: z.string(), website: z.nullish(z.string()) }),
  config: z.nullable(aiPagesConfigSchema),
  usage: z.nullable(aiPagesUsageSchema),
});
export type AiPagesRecord = z.infer<typeof aiPagesRecordSchema>;
