/**
 * Every feature of the Slack app, one folder each. To add one: create
 * `features/<name>/` with a `<name>-feature.ts` and append it here (one line); routing,
 * help and the App Home pick up what it offers. Help lists subcommands in this order
 * within a group.
 */

import { aipagesFeature } from './aipages/aipages-feature.js';
import { alertsFeature } from './alerts/alerts-feature.js';
import { aliasesFeature } from './aliases/aliases-feature.js';
import { brandsFeature } from './brands/brands-feature.js';
import { citationsFeature } from './citations/citations-feature.js';
import { crawlerFeature } from './crawler/crawler-feature.js';
import type { Feature } from './feature.js';
import { helpFeature } from './help/help-feature.js';
import { homeFeature } from './home/home-feature.js';
import { ideasFeature } from './ideas/ideas-feature.js';
import { locationFeature } from './location/location-feature.js';
import { marketsFeature } from './markets/markets-feature.js';
import { statusFeature } from './status/status-feature.js';
import { subscriptionsFeature } from './subscriptions/subscriptions-feature.js';
import { useFeature } from './use/use-feature.js';
import { workflowStepsFeature } from './workflow-steps/workflow-steps-feature.js';

export const features: readonly Feature[] = [
  helpFeature,
  brandsFeature,
  marketsFeature,
  locationFeature,
  aliasesFeature,
  useFeature,
  statusFeature,
  ideasFeature,
  citationsFeature,
  crawlerFeature,
  aipagesFeature,
  subscriptionsFeature,
  alertsFeature,
  homeFeature,
  workflowStepsFeature,
];
