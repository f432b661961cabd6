/** Every modal submission handler, gathered from the feature folders (features/features.ts). */
import { features } from '../../features/features.js';
import type { SubmissionHandler } from '../../submissions/submission-handler.js';

export type {
  SubmissionContext,
  SubmissionHandler,
  SubmissionResult,
} from '../../submissions/submission-handler.js';

export const submissionHandlers: SubmissionHandler[] = features.flatMap((f) => f.submissions ?? []);
