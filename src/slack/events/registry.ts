/** App Home handlers, gathered from the feature folders (features/features.ts). */
import { features } from '../features/features.js';
import type { HomeHandler } from './home-handler.js';

export type { HomeContext, HomeHandler } from './home-handler.js';

export const homeHandlers: HomeHandler[] = features.flatMap((f) => f.home ?? []);
