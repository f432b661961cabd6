import type { Feature } from '../feature.js';
import { citations } from './citations.js';
import { citationsChartAction } from './citations-chart-action.js';
import { citationsPageAction } from './citations-page-action.js';

export const citationsFeature: Feature = {
  subcommands: [citations],
  actions: [citationsPageAction, citationsChartAction],
};
