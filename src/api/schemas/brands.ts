import * as z from 'zod/mini';

/** docs/api.md §2 Market. */
export const marketSchema = z.looseObject({
  id: z.string(),
  brand_id: z.string(),
  location: z.string(),
  is_primary: z.boolean(),
  active: z.optional(z.boolean()),
  created_at: z.optional(z.string()),
  market_name: z.nullish(z.string()),
});
export type Market = z.infer<typeof marketSchema>;

/** docs/api.md §2 Brand. `markets` and `aliases` appear only when asked for with `include`. */
export const brandSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  website: z.nullish(z.string()),
  active: z.boolean(),
  role: z.enum(['owner', 'editor', 'viewer']),
  location: z.optional(z.nullable(z.string())),
  location_region: z.nullish(z.string()),
  location_city: z.nullish(z.string()),
  markets: z.optional(z.array(marketSchema)),
  aliases: z.optional(z.array(z.string())),
});
export type Brand = z.infer<typeof brandSchema>;

/** docs/api.md §4.3 */
export const brandsResponseSchema = z.looseObject({ brands: z.array(brandSchema) });
export type BrandsResponse = z.infer<typeof brandsResponseSchema>;

/** docs/api.md §4.6 */
export const locationResponseSchema = z.looseObject({
  brand_id: z.string(),
  location: z.string(),
  location_region: z.nullish(z.string()),
  location_city: z.nullish(z.string()),
  location_provider_code: z.nullish(z.number()),
  primary_market: marketSchema,
});
export type LocationResponse = z.infer<typeof locationResponseSchema>;

/** docs/api.md §4.7 */
export const aliasesResponseSchema = z.looseObject({
  success: z.boolean(),
  brand_id: z.string(),
  aliases: z.array(z.string()),
});
export type AliasesResponse = z.infer<typeof aliasesResponseSchema>;

/** docs/api.md §4.5: the success body is not documented; whatever comes back is passed through. */
export const removeMarketResponseSchema = z.looseObject({});
export type RemoveMarketResponse = z.infer<typeof removeMarketResponseSchema>;
