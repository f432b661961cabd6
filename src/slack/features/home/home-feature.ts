import type { Feature } from '../feature.js';
import { brandsHome } from './brands-home.js';

export const homeFeature: Feature = { home: [brandsHome] };
