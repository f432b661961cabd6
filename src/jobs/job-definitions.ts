/** Every job by name, in the order `all` runs them. */

import type { JobName } from '../use-cases/job-names.js';
import { aiPagesJob } from './ai-pages-job.js';
import { citationsJob } from './citations-job.js';
import { crawlerJob } from './crawler-job.js';
import { digestJob } from './digest-job.js';
import type { JobDefinition } from './job-definition.js';
import { weeklyJob } from './weekly-job.js';

export const JOB_DEFINITIONS: Readonly<Record<JobName, JobDefinition>> = {
  citations: citationsJob,
  crawler: crawlerJob,
  'ai-pages': aiPagesJob,
  digest: digestJob,
  weekly: weeklyJob,
};
