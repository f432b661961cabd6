/**
 * The local Slack runs custom steps as Workflow Builder does: a signed function_executed
 * event with the run's inputs and its own token, which the Web API accepts until the run
 * ends; functions.completeSuccess checks the outputs against the function's definition
 * (parameter_validation_failed), and a run ends once (execution_not_in_running_state).
 */
import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import type { FunctionDefinitions } from '../../../src/dev/local-slack/index.js';
import { startLocalSlack } from '../../../src/dev/local-slack/index.js';
import { platformError, quietLogger, useAckServer } from './local-slack-fixture.js';

const app = useAckServer();

const FUNCTIONS: FunctionDefinitions = {
  count_things: {
    title: 'Count things',
    input_parameters: { what: { type: 'string', is_required: true } },
    output_parameters: {
      count: { type: 'integer', is_required: true },
      names: { type: 'array', items: { type: 'string' } },
      who: { type: 'slack#/types/user_id' },
    },
  },
};

async function withSlack(fn: (slack: Awaited<ReturnType<typeof startLocalSlack>>) => Promise<void>) {
  const slack = await startLocalSlack({ functions: FUNCTIONS });
  try {
    await fn(slack);
  } finally {
    await slack.close();
  }
}

const client = (slack: { url: string }, token: string) =>
  new WebClient(token, { slackApiUrl: slack.url, retryConfig: { retries: 0 }, logger: quietLogger });

describe('function_executed', () => {
  it('is a signed event carrying the function, the inputs, the run and its token', async () => {
    await withSlack(async (slack) => {
      const { status, execution } = await slack.executeFunction(app.url, {
        callbackId: 'count_things',
        inputs: { what: 'pages' },
      });
      expect(status).toBe(200);
      const sent = JSON.parse(app.requests[0]!.body) as {
        type: string;
        event: { function: { input_parameters: unknown } };
      };
      expect(app.requests[0]!.headers['x-slack-signature']).toMatch(/^v0=/);
      expect(sent.type).toBe('event_callback');
      expect(sent.event).toMatchObject({
        type: 'function_executed',
        function: { callback_id: 'count_things', title: 'Count things' },
        inputs: { what: 'pages' },
        function_execution_id: execution.id,
        workflow_execution_id: execution.workflowExecutionId,
        bot_access_token: execution.botAccessToken,
      });
      expect(sent.event.function.input_parameters).toEqual([
        { name: 'what', type: 'string', is_required: true },
      ]);
      expect(slack.functionExecutions()).toEqual([
        expect.objectContaining({ id: execution.id, state: 'running' }),
      ]);
    });
  });

  it('refuses a function the app does not define', async () => {
    await withSlack(async (slack) => {
      await expect(slack.executeFunction(app.url, { callbackId: 'nope' })).rejects.toThrow(
        /no function "nope"/,
      );
    });
  });
});

describe('functions.completeSuccess and completeError', () => {
  it('accept the run’s token until the run ends, then refuse it', async () => {
    await withSlack(async (slack) => {
      const { execution } = await slack.executeFunction(app.url, { callbackId: 'count_things' });
      const web = client(slack, execution.botAccessToken);
      expect((await web.auth.test()).ok).toBe(true);
      await web.functions.completeSuccess({
        function_execution_id: execution.id,
        outputs: { count: 3, names: ['a', 'b'], who: 'U0LOCALUSR' },
      });
      expect(slack.functionExecutions()[0]).toMatchObject({
        state: 'completed',
        outputs: { count: 3, names: ['a', 'b'], who: 'U0LOCALUSR' },
      });
      expect((await platformError(web.auth.test())).error).toBe('invalid_auth');
    });
  });

  it('check the outputs against the definition, as Slack does', async () => {
    await withSlack(async (slack) => {
      const { execution } = await slack.executeFunction(app.url, { callbackId: 'count_things' });
      const web = client(slack, execution.botAccessToken);
      const refused = await platformError(
        web.functions.completeSuccess({
          function_execution_id: execution.id,
          outputs: { count: 'three', names: [1], extra: true },
        }),
      );
      expect(refused.error).toBe('parameter_validation_failed');
      expect(refused.data['errors']).toEqual([
        'count: must be an integer',
        'names: items must be strings',
        'extra: not an output of this function',
      ]);
      const missing = await platformError(
        web.functions.completeSuccess({ function_execution_id: execution.id, outputs: {} }),
      );
      expect(missing.data['errors']).toEqual(['count: required output is missing']);
      // Still running: it can end with an error instead.
      await web.functions.completeError({ function_execution_id: execution.id, error: 'No brand called X.' });
      expect(slack.functionExecutions()[0]).toMatchObject({ state: 'failed', error: 'No brand called X.' });
    });
  });

  it('end a run once, and only a run that exists', async () => {
    await withSlack(async (slack) => {
      const { execution } = await slack.executeFunction(app.url, { callbackId: 'count_things' });
      const bot = client(slack, slack.botToken);
      await bot.functions.completeError({ function_execution_id: execution.id, error: 'stopped' });
      const again = await platformError(
        bot.functions.completeSuccess({ function_execution_id: execution.id, outputs: { count: 1 } }),
      );
      expect(again.error).toBe('execution_not_in_running_state');
      const unknown = await platformError(
        bot.functions.completeError({ function_execution_id: 'Fx0NOPE', error: 'x' }),
      );
      expect(unknown.error).toBe('function_execution_not_found');
      const { execution: second } = await slack.executeFunction(app.url, { callbackId: 'count_things' });
      const empty = await platformError(
        bot.functions.completeError({ function_execution_id: second.id, error: ' ' }),
      );
      expect(empty.error).toBe('invalid_arguments');
      slack.reset();
      expect(slack.functionExecutions()).toEqual([]);
    });
  });
});
