/**
 * The contract for a Workflow Builder step (a Slack "custom step": a function in the app
 * manifest, run through Bolt's `app.function`). A step's definition here is the one the
 * manifests carry (test/slack/workflow-steps-manifest.test.ts holds them equal): its
 * title, its inputs and its outputs as Workflow Builder shows them to a workflow author.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../logger.js';
import type { SlackDeps } from '../kit/slack-deps.js';

/** The parameter types these steps use (https://docs.slack.dev/reference/automation/types). */
export type StepParameterType =
  | 'string'
  | 'integer'
  | 'number'
  | 'array'
  | 'slack#/types/user_id'
  | 'slack#/types/channel_id';

export interface StepParameter {
  type: StepParameterType;
  /** What Workflow Builder labels it with. */
  title: string;
  description: string;
  is_required?: boolean;
  /** Shown under an input while the author fills it in. */
  hint?: string;
  /** An array's item type. */
  items?: { type: 'string' };
}

export interface StepDefinition {
  title: string;
  description: string;
  input_parameters: Readonly<Record<string, StepParameter>>;
  output_parameters: Readonly<Record<string, StepParameter>>;
}

export interface StepContext {
  /** The service's deps with the request's API view: the interactive lane, in arrival order. */
  deps: SlackDeps;
  inputs: Readonly<Record<string, unknown>>;
  /** The Web API client Bolt gives the step (the execution's own token). */
  client: WebClient;
  logger: Logger;
  /** This run of the step (`function_execution_id`). */
  executionId: string;
  /** Refuses a Slack guest the way commands do (a UserError). */
  ensureMember(userId: string): Promise<void>;
}

/** What a step hands back: its outputs, by name, as the definition declares them. */
export type StepOutputs = Record<string, string | number | string[]>;

export interface WorkflowStep {
  /** The function's callback_id in the manifest. */
  callbackId: string;
  definition: StepDefinition;
  run(ctx: StepContext): Promise<StepOutputs>;
}
