/**
 * Workflow Builder runs of the app's custom steps, as Slack keeps them: each run
 * (`function_execution_id`) is started by a `function_executed` event carrying a token of
 * its own (`bot_access_token`), which the Web API accepts while the run is open, and ends
 * with functions.completeSuccess (its outputs, checked against the function's
 * output_parameters when the local Slack knows the app's functions) or
 * functions.completeError (the sentence Slack shows the person). A run completes once.
 * https://docs.slack.dev/reference/events/function_executed,
 * /reference/methods/functions.completeSuccess, /reference/methods/functions.completeError
 */
import { randomBytes } from 'node:crypto';
import type { FunctionDefinitions, FunctionExecution, FunctionParameter } from './types.js';

const CHANNEL_ID = /^[CGD][A-Z0-9]+$/;
const USER_ID = /^[UW][A-Z0-9]+$/;

function typeProblem(param: FunctionParameter, value: unknown): string | undefined {
  switch (param.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'must be an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'array':
      if (!Array.isArray(value)) return 'must be an array';
      return param.items?.type === 'string' && value.some((v) => typeof v !== 'string')
        ? 'items must be strings'
        : undefined;
    case 'slack#/types/user_id':
      return typeof value === 'string' && USER_ID.test(value) ? undefined : 'must be a user id';
    case 'slack#/types/channel_id':
      return typeof value === 'string' && CHANNEL_ID.test(value) ? undefined : 'must be a channel id';
    default:
      return undefined;
  }
}

/** Slack's `parameter_validation_failed` details for `outputs`, or none. */
export function outputProblems(params: Record<string, FunctionParameter>, outputs: unknown): string[] {
  if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs)) {
    return ['outputs must be an object'];
  }
  const given = outputs as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, param] of Object.entries(params)) {
    const value = given[name];
    if (value === undefined || value === null) {
      if (param.is_required) problems.push(`${name}: required output is missing`);
      continue;
    }
    const problem = typeProblem(param, value);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  for (const name of Object.keys(given)) {
    if (!(name in params)) problems.push(`${name}: not an output of this function`);
  }
  return problems;
}

export class FunctionExecutions {
  readonly runs = new Map<string, FunctionExecution>();
  readonly #byToken = new Map<string, string>();
  #seq = 0;

  constructor(readonly definitions: FunctionDefinitions | undefined) {}

  start(callbackId: string, inputs: Record<string, unknown>, at: number): FunctionExecution {
    if (this.definitions && !(callbackId in this.definitions)) {
      throw new Error(`local Slack: the app defines no function "${callbackId}"`);
    }
    this.#seq += 1;
    const run: FunctionExecution = {
      id: `Fx0LOCAL${String(this.#seq).padStart(4, '0')}`,
      workflowExecutionId: `Wx0LOCAL${String(this.#seq).padStart(4, '0')}`,
      callbackId,
      inputs,
      botAccessToken: `xwfp-local-${randomBytes(12).toString('hex')}`,
      state: 'running',
      outputs: undefined,
      error: undefined,
      startedAt: at,
      completedAt: undefined,
    };
    this.runs.set(run.id, run);
    this.#byToken.set(run.botAccessToken, run.id);
    return run;
  }

  /** A run's token is good while the run is open. */
  acceptsToken(token: string): boolean {
    const id = this.#byToken.get(token);
    return id !== undefined && this.runs.get(id)?.state === 'running';
  }

  reset(): void {
    this.runs.clear();
    this.#byToken.clear();
  }
}
