import { z } from 'zod';

/** API.md §2 AI Pages record */
export const aiPagesConfigSchema = z.looseObject({
  enabled: z.boolean(),
  domain: z.string(),
  platform: z.string().nullish(),
  features: z.array(z.string()).default([]),
  crawlers: z.array(z.string()).default([]),
});
export type AiPagesConfig = z.infer<typeof aiPagesConfigSchema>;

export const aiPagesUsageSchema = z.looseObject({
  requests_this_month: z.number(),
  requests_limit: z.number(),
  percentage_used: z.number().min(0).max(100),
  reset_date: z.string(),
});
export type AiPagesUsage = z.infer<typeof aiPagesUsageSchema>;

export const aiPagesRecordSchema = z.looseObject({
  brand: z.looseObject({ id: z.string(), name: z.string(), website: z.string().nullish() }),
  config: aiPagesConfigSchema.nullable(),
  usage: aiPagesUsageSchema.nullable(),
});
export type AiPagesRecord = z.infer<typeof aiPagesRecordSchema>;
