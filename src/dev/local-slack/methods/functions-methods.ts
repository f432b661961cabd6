/**
 * functions.completeSuccess and functions.completeError: how a custom step's run ends.
 * https://docs.slack.dev/reference/methods/functions.completeSuccess (errors:
 * function_execution_not_found, execution_not_in_running_state, parameter_validation_failed)
 * and /reference/methods/functions.completeError.
 */
import { outputProblems } from '../function-executions.js';
import { str } from '../parse-api-args.js';
import type { FunctionExecution } from '../types.js';
import { type ApiResult, type MethodContext, type MethodHandler, slackError } from './method-context.js';

function runningExecution(
  args: Record<string, unknown>,
  { ws }: MethodContext,
): FunctionExecution | ApiResult {
  const id = str(args['function_execution_id']);
  if (!id) return slackError('invalid_arguments', ['missing required field: function_execution_id']);
  const run = ws.functions.runs.get(id);
  if (!run) return slackError('function_execution_not_found');
  if (run.state !== 'running') return slackError('execution_not_in_running_state');
  return run;
}

const isRun = (x: FunctionExecution | ApiResult): x is FunctionExecution => 'callbackId' in x;

export const completeSuccess: MethodHandler = (args, ctx) => {
  const run = runningExecution(args, ctx);
  if (!isRun(run)) return run;
  const outputs = args['outputs'];
  const definition = ctx.ws.functions.definitions?.[run.callbackId];
  if (definition) {
    const problems = outputProblems(definition.output_parameters, outputs ?? {});
    if (problems.length > 0) return slackError('parameter_validation_failed', problems);
  } else if (outputs !== undefined && (typeof outputs !== 'object' || outputs === null)) {
    return slackError('invalid_arguments', ['outputs must be an object']);
  }
  run.state = 'completed';
  run.outputs = (outputs ?? {}) as Record<string, unknown>;
  run.completedAt = ctx.clock.now();
  return { ok: true };
};

export const completeError: MethodHandler = (args, ctx) => {
  const run = runningExecution(args, ctx);
  if (!isRun(run)) return run;
  const error = str(args['error']);
  if (!error || error.trim() === '')
    return slackError('invalid_arguments', ['missing required field: error']);
  run.state = 'failed';
  run.error = error;
  run.completedAt = ctx.clock.now();
  return { ok: true };
};
