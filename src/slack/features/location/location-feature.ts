import type { Feature } from '../feature.js';
import { editLocationButton } from './edit-location-button.js';
import { location } from './location.js';
import { locationSubmission } from './location-submission.js';

export const locationFeature: Feature = {
  subcommands: [location],
  actions: [editLocationButton],
  submissions: [locationSubmission],
};
