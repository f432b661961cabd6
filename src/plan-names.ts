/**
 * The API's plan tiers by name (VISIBILITY_API_PLAN). In the kernel, not in api/, because
 * config.ts validates the variable against them and imports nothing above the kernel;
 * each tier's limits are in api/plans.ts.
 */
export const planNames = ['scale', 'enterprise', 'test'] as const;
export type PlanName = (typeof planNames)[number];
