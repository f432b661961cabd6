/**
 * `:submit block_id.action_id=value …`: submits the open modal (a signed view_submission)
 * and shows what Slack would: errors under the inputs (`response_action: errors`), the
 * updated or pushed modal, or the modal closing; then any follow-up messages.
 */
import type { ConsoleContext } from '../console-context.js';
import { ConsoleInputError } from '../console-input-error.js';
import { plainOf, rec, str } from '../render/block-json.js';
import { formInputs } from '../render/form-inputs.js';
import { showPending } from '../show-pending.js';
import { showView } from '../show-view.js';
import { type SuggestOptions, submissionValues } from '../submission-values.js';
import { waitForQuiet } from '../wait-for-quiet.js';

function errorsOf(ack: Record<string, unknown>): Record<string, string> {
  const errors = rec(ack['errors']) ?? {};
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, str(v) ?? String(v)]));
}

export async function runSubmit(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const { stack, io, state } = ctx;
  const { style } = io;
  const view = state.modalId ? stack.slack.view(state.modalId) : undefined;
  if (!view || view.closed) {
    state.modalId = undefined;
    throw new ConsoleInputError('No modal is open: modals appear when a command or a button opens one.');
  }
  // A type-ahead select's options come from the bot, asked as Slack asks it while someone types.
  const suggest: SuggestOptions = async (actionId, typed) => {
    const res = await stack.slack.blockSuggestion(stack.appUrl, {
      actionId,
      value: typed,
      viewId: view.id,
      userId: ctx.userId,
    });
    return res.options.map((o) => ({ label: plainOf(o.text), value: o.value }));
  };
  const { values, problems } = await submissionValues(formInputs(view.blocks), args, suggest);
  if (problems.length > 0) throw new ConsoleInputError(problems.join('\n'));

  showPending(ctx);
  const res = await stack.slack.viewSubmission(stack.appUrl, {
    callbackId: view.callback_id,
    viewId: view.id,
    values,
    userId: ctx.userId,
  });
  if (res.status !== 200) {
    io.print(
      style.bad(
        `The service answered HTTP ${res.status}: Slack would show "We had some trouble connecting".`,
      ),
    );
    return;
  }
  const ack = rec(res.json) ?? {};
  const action = str(ack['response_action']);
  // What the ack did to the modals is already applied by the local Slack; it is not a Web API call.
  const top = stack.slack
    .views()
    .filter((v) => v.type === 'modal' && !v.closed)
    .at(-1);
  if (action === 'errors') {
    io.print(style.bad('Slack keeps the modal open and shows:'));
    showView(ctx, view, 'the modal, with errors', errorsOf(ack));
  } else if ((action === 'update' || action === 'push') && top) {
    showView(ctx, top, action === 'update' ? 'the modal was updated' : 'a new modal was pushed');
  } else {
    io.print(
      style.good(action === 'clear' ? 'Submitted: every modal closed.' : 'Submitted: the modal closed.'),
    );
    state.modalId = action === 'clear' ? undefined : top?.id;
  }
  // What the handler posted (before or after its ack) shows now.
  await waitForQuiet(stack.slack, ctx.timing.quietMs, ctx.timing.followMs);
  showPending(ctx);
}
