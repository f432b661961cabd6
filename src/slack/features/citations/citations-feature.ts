import type { Feature } from '../../feature.js';
import { citations } from './citations.js';
import { citationsPageAction } from './citations-page-action.js';

export const citationsFeature: Feature = { subcommands: [citations], actions: [citationsPageAction] };
