import type { Feature } from '../feature.js';
import { aipages } from './aipages.js';
import { aiPagesChartAction } from './aipages-chart-action.js';

export const aipagesFeature: Feature = { subcommands: [aipages], actions: [aiPagesChartAction] };
