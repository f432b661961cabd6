/**
 * What a feature folder (`slack/features/<feature>/`) hands the app: its subcommands,
 * button handlers, modal submissions, App Home sections and Workflow Builder steps. The routers find them through
 * `features/features.ts`; a feature never registers listeners itself.
 */
import type { ActionHandler } from '../actions/action-handler.js';
import type { Subcommand } from '../commands/subcommand.js';
import type { HomeHandler } from '../events/home-handler.js';
import type { WorkflowStep } from '../steps/workflow-step.js';
import type { SubmissionHandler } from '../submissions/submission-handler.js';

export interface Feature {
  /** In the order help lists them within a group. */
  subcommands?: readonly Subcommand[];
  actions?: readonly ActionHandler[];
  submissions?: readonly SubmissionHandler[];
  home?: readonly HomeHandler[];
  /** Workflow Builder steps (manifest `functions`). */
  steps?: readonly WorkflowStep[];
}
