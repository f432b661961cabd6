/**
 * The API's fixed lists of values (docs/api.md), without zod: the client checks parameters
 * against them before a request, and the configuration and settings read them, without
 * building the response schemas (the client loads those on its first response).
 */

export const rangePresets = ['24h', '7d', '30d', '90d', 'custom'] as const;
export type RangePreset = (typeof rangePresets)[number];
export const crawlerIntents = ['all', 'interaction', 'search', 'training'] as const;
export const pageStatuses = ['converting', 'cited', 'crawled', 'healthy', 'cold'] as const;
export const ideaStatuses = ['active', 'dismissed', 'implemented'] as const;
export type IdeaStatus = (typeof ideaStatuses)[number];
