import type { Feature } from '../feature.js';
import { brandVisibilityStep } from './brand-visibility-step.js';
import { lostCitationsStep } from './lost-citations-step.js';
import { postDigestStep } from './post-digest-step.js';

export const workflowStepsFeature: Feature = {
  steps: [brandVisibilityStep, lostCitationsStep, postDigestStep],
};
