/** The app's custom steps as the manifest declares them, for a local Slack that checks runs against them. */
import type { FunctionDefinitions } from '../../src/dev/local-slack/index.js';
import { workflowSteps } from '../../src/slack/routers/steps/registry.js';

export const FUNCTIONS: FunctionDefinitions = Object.fromEntries(
  workflowSteps.map((s) => [s.callbackId, s.definition]),
);
