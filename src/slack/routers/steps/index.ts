/**
 * Workflow Builder steps: each registered step is a Bolt custom function
 * (`app.function(callback_id, …)`), which Slack runs as a `function_executed` event. Bolt
 * acknowledges the event at once; the step then runs and always ends in `complete` (its
 * outputs) or `fail` (a sentence for the workflow's author), whatever went wrong.
 *
 * Lane: a step's API calls go in the interactive lane, ranked by arrival, exactly as a
 * command's (request-deps.ts), and share the key's one budget with everything else. A
 * workflow is waiting on the step (often a person who clicked "Start", always the steps
 * after it), and Slack gives up on a step that takes too long; in the background lane it
 * could queue behind a thousand brands' polls. Ranked by arrival, a burst of workflow runs
 * takes its turn with the commands instead of starving them.
 */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { createGuestCheck, type GuestCheck } from '../../kit/guest-check.js';
import { requestDeps } from '../../kit/request-deps.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import { stepFailure } from '../../steps/step-failure.js';
import type { WorkflowStep } from '../../steps/workflow-step.js';
import { workflowSteps } from './registry.js';

interface RegisterStepsOptions {
  steps?: readonly WorkflowStep[];
  guestCheck?: GuestCheck;
}

export function register(app: App, deps: SlackDeps, options: RegisterStepsOptions = {}): void {
  const guestCheck = options.guestCheck ?? createGuestCheck(deps.clock);
  for (const step of options.steps ?? workflowSteps) {
    app.function(step.callbackId, async ({ inputs, complete, fail, client, event }) => {
      const logger = deps.logger.child({
        component: 'workflow-step',
        step: step.callbackId,
        executionId: event.function_execution_id,
      });
      const started = deps.clock.now();
      try {
        const outputs = await step.run({
          deps: requestDeps(deps, started),
          inputs: inputs ?? {},
          client: client as WebClient,
          logger,
          executionId: event.function_execution_id,
          ensureMember: (userId) => guestCheck(client as WebClient, userId),
        });
        await complete({ outputs });
        logger.info({ durationMs: deps.clock.now() - started }, 'workflow step completed');
      } catch (err) {
        const failure = stepFailure(step.definition.title, err);
        if (failure.expected) logger.info({ err }, 'workflow step failed');
        else logger.error({ err, ref: failure.ref }, 'workflow step failed');
        // Slack may refuse the outputs themselves (parameter_validation_failed): say so too.
        await fail({ error: failure.sentence }).catch((failErr: unknown) =>
          logger.error({ err: failErr }, 'could not report the workflow step as failed'),
        );
      }
    });
  }
}
