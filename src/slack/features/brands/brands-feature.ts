import type { Feature } from '../feature.js';
import { brand } from './brand.js';
import { brands } from './brands.js';

export const brandsFeature: Feature = { subcommands: [brands, brand] };
