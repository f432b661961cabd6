/** App Home handlers (the App Home helper appends its own here, one line). */

import { brandsHome } from '../home/brands-home.js';
import type { HomeHandler } from './home-handler.js';

export type { HomeContext, HomeHandler } from './home-handler.js';

export const homeHandlers: HomeHandler[] = [brandsHome];
