/** App Home handlers, gathered from the feature folders (features/features.ts). */

import type { HomeHandler } from '../../events/home-handler.js';
import { features } from '../../features/features.js';

export type { HomeContext, HomeHandler } from '../../events/home-handler.js';

export const homeHandlers: HomeHandler[] = features.flatMap((f) => f.home ?? []);
