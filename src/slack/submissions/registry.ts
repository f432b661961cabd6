/** Every modal submission handler. To add one: import it and append it here (one line). */

import { addMarketSubmission } from './add-market-submission.js';
import { aliasesSubmission } from './aliases-submission.js';
import { locationSubmission } from './location-submission.js';
import type { SubmissionHandler } from './submission-handler.js';

export type { SubmissionContext, SubmissionHandler, SubmissionResult } from './submission-handler.js';

export const submissionHandlers: SubmissionHandler[] = [
  addMarketSubmission,
  locationSubmission,
  aliasesSubmission,
];
