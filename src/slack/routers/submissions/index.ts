/**
 * Modal submissions: the handler's result is the ack itself (errors under the inputs,
 * update, close), so it runs before the ack, bounded: past ACK_BUDGET_MS the modal is
 * closed anyway rather than let Slack show "We had some trouble connecting".
 */
import type { AckFn, App, SlackViewAction, ViewResponseAction } from '@slack/bolt';
import { fitMessage, fitView } from '../../../messages/block-kit-limits.js';
import { explainError } from '../../../messages/explain-error.js';
import { errorReply } from '../../../messages/reply.js';
import { truncatePlain } from '../../../messages/truncate-mrkdwn.js';
import { requestDeps } from '../../kit/request-deps.js';
import { requireWriter } from '../../kit/require-writer.js';
import type { SlackDeps } from '../../kit/slack-deps.js';
import type {
  SubmissionContext,
  SubmissionHandler,
  SubmissionResult,
} from '../../submissions/submission-handler.js';
import { submissionHandlers } from './registry.js';

const ACK_BUDGET_MS = 2500;

interface RegisterSubmissionsOptions {
  handlers?: readonly SubmissionHandler[];
  ackBudgetMs?: number;
}

function responseFor(result: SubmissionResult): ViewResponseAction | undefined {
  if ('errors' in result) return { response_action: 'errors', errors: result.errors };
  if ('update' in result)
    return { response_action: 'update', view: fitView(result.update) } as ViewResponseAction;
  return result.close === 'all' ? { response_action: 'clear' } : undefined;
}

/** The first input block, where a refusal or failure is shown when the handler throws. */
function firstBlockId(view: SlackViewAction['view']): string | undefined {
  return (view.blocks as Array<{ type?: string; block_id?: string }>).find((b) => b.type === 'input')
    ?.block_id;
}

export function register(app: App, deps: SlackDeps, options: RegisterSubmissionsOptions = {}): void {
  const handlers = options.handlers ?? submissionHandlers;
  const budget = options.ackBudgetMs ?? ACK_BUDGET_MS;
  app.view({ type: 'view_submission', callback_id: /.*/ }, async ({ ack, body, view, client }) => {
    const doAck = ack as AckFn<ViewResponseAction | undefined>;
    const handler = handlers.find((h) => h.callbackId === view.callback_id);
    const logger = deps.logger.child({
      component: 'submission',
      userId: body.user.id,
      callbackId: view.callback_id,
    });
    if (!handler) {
      logger.warn('no handler for this modal; closing it');
      await doAck();
      return;
    }
    const ctx: SubmissionContext = {
      deps: requestDeps(deps, deps.clock.now()),
      userId: body.user.id,
      callbackId: view.callback_id,
      values: view.state.values as Record<string, Record<string, unknown>>,
      privateMetadata: view.private_metadata,
      viewId: view.id,
      client,
      body,
      requireWriter: async (what) => requireWriter(deps, { userId: body.user.id }, what),
    };
    let acked = false;
    const ackOnce = async (response?: ViewResponseAction) => {
      if (acked) return;
      acked = true;
      await doAck(response);
    };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), budget);
    });
    try {
      const running = handler.run(ctx);
      const result = await Promise.race([running, late]);
      if (result === 'late') {
        logger.warn({ budgetMs: budget }, 'submission handler too slow for the ack; modal closed');
        await ackOnce();
      }
      const final = result === 'late' ? await running : result;
      await ackOnce(responseFor(final));
      if ('afterAck' in final) await final.afterAck?.();
    } catch (err) {
      const facing = explainError(err);
      if (!facing.expected) logger.error({ err, ref: facing.ref }, 'submission failed');
      const blockId = firstBlockId(view);
      if (!acked) {
        // Before the ack the message can sit under the first input, where the user looks.
        await ackOnce(
          blockId
            ? { response_action: 'errors', errors: { [blockId]: truncatePlain(facing.message, 300) } }
            : undefined,
        );
        if (blockId) return;
      }
      // The modal is gone: tell the user in the app's DM.
      const reply = fitMessage(errorReply(err, facing));
      await client.chat
        .postMessage({ channel: body.user.id, text: reply.text, blocks: reply.blocks })
        .catch((dmErr: unknown) =>
          logger.warn({ err: dmErr }, 'could not tell the user about a failed submission'),
        );
    } finally {
      clearTimeout(timer);
    }
  });
}
