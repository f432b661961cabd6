import type { Feature } from '../feature.js';
import { crawler } from './crawler.js';
import { crawlerChartAction } from './crawler-chart-action.js';
import { crawlerDrawerAction } from './crawler-drawer-action.js';
import { crawlerMoreAction } from './crawler-more-action.js';
import { crawlerPreviewFixAction } from './crawler-preview-fix-action.js';

export const crawlerFeature: Feature = {
  subcommands: [crawler],
  actions: [crawlerMoreAction, crawlerDrawerAction, crawlerPreviewFixAction, crawlerChartAction],
};
