/**
 * `:click N`: presses a shown button (or picks a shown option) the way Slack does: a signed
 * block_actions request naming the element's action_id, block_id and value, from the message
 * it is on (a fresh response_url whose replace_original targets that message) or from the
 * modal / Home tab. A confirm dialog is shown and answered first. A chart button's chart is
 * drawn and uploaded after the click is answered: the console waits for it (or for the
 * error the clicker is told) and says where it went.
 */
import { CHART_ACTION_PREFIX } from '../../../slack/views/chart-button.js';
import { type ActivityMark, markActivity } from '../activity-mark.js';
import { awaitHandled } from '../await-handled.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleInputError } from '../console-input-error.js';
import { showPending } from '../show-pending.js';
import { waitForQuiet } from '../wait-for-quiet.js';
import { findClickable } from './find-clickable.js';

export async function runClick(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const { stack, io, state } = ctx;
  const { style } = io;
  const ref = args.join(' ').trim();
  if (!ref) throw new ConsoleInputError('Say which: :click <number> or :click <label>.');
  if (state.clickables.length === 0) throw new ConsoleInputError('There is nothing to click yet.');
  const c = findClickable(state.clickables, ref);
  if (!c) {
    throw new ConsoleInputError(
      `No button ${/^\d+$/.test(ref) ? `[${ref}]` : `"${ref}"`}: the last ones shown are [1]–[${state.clickables.length}].`,
    );
  }
  const number = state.clickables.indexOf(c) + 1;
  io.print(style.accent(`Clicking [${number}] ${c.label}`));
  if (c.url) io.print(style.dim(`(a link button: Slack opens ${c.url} and also tells the app)`));
  if (c.confirm) {
    io.print(
      `${style.bold(c.confirm.title)}\n${c.confirm.text}\n[${c.confirm.confirm}]  [${c.confirm.deny}]`,
    );
    if (!(await io.confirm('confirm? (y/n)'))) {
      io.print(`${c.confirm.deny}: nothing was sent.`);
      return;
    }
  }

  const before = stack.handled();
  const clickedAt = markActivity(stack.slack);
  const common = {
    actionId: c.actionId,
    userId: ctx.userId,
    ...(c.blockId !== undefined ? { blockId: c.blockId } : {}),
    ...(c.value !== undefined ? { value: c.value } : {}),
    ...(c.selectedOption !== undefined ? { selectedOption: c.selectedOption } : {}),
  };
  let res: Awaited<ReturnType<typeof stack.slack.blockAction>>;
  try {
    res =
      c.target.kind === 'view'
        ? await stack.slack.blockAction(stack.appUrl, {
            ...common,
            container: 'view',
            viewId: c.target.viewId,
          })
        : await stack.slack.blockAction(stack.appUrl, {
            ...common,
            channelId: c.target.channelId,
            messageTs: c.target.messageTs,
          });
  } catch (err) {
    // The local Slack refuses clicks on elements no longer rendered, as a person could not make them.
    throw new ConsoleInputError(
      `That button is gone (${err instanceof Error ? err.message : String(err)}); use the newest numbers.`,
    );
  }
  if (res.responseUrlId && c.target.kind === 'message')
    state.responseUrlChannels.set(res.responseUrlId, c.target.channelId);
  if (res.status !== 200) {
    io.print(style.bad(`The service answered HTTP ${res.status}: Slack would show an error on the button.`));
    return;
  }
  // Only `vis:` actions have a listener (slack/routers/actions/index.ts), and only they end in a
  // handled-count; for others, waiting for Slack to go quiet is all there is.
  let done = true;
  if (c.actionId.startsWith('vis:')) done = await awaitHandled(ctx, before);
  else await waitForQuiet(stack.slack, ctx.timing.quietMs, ctx.timing.followMs);
  if (done && c.actionId.startsWith(CHART_ACTION_PREFIX)) await awaitChart(ctx, clickedAt);
  const shown = showPending(ctx);
  if (!done) io.print(style.dim(`(still working after ${ctx.timing.replyTimeoutMs / 1000} s)`));
  else if (shown === 0) io.print(style.dim('(the click changed nothing visible)'));
}

/** Waits for the chart a chart button started: shared in a channel, or an error told to the clicker. */
async function awaitChart(ctx: ConsoleContext, since: ActivityMark): Promise<void> {
  const { slack } = ctx.stack;
  const settled = () =>
    slack.calls.slice(since.calls).some((call) => call.method === 'files.completeUploadExternal') ||
    slack.responses.length > since.responses;
  if (settled()) return;
  ctx.io.print(ctx.io.style.dim('Drawing the chart and uploading it…'));
  const arrived = await slack.waitFor(settled, ctx.timing.backgroundMs).then(
    () => true,
    () => false,
  );
  if (!arrived)
    ctx.io.print(
      ctx.io.style.dim(`(no chart after ${ctx.timing.backgroundMs / 1000} s; :wait shows it when it comes)`),
    );
  else await waitForQuiet(slack, ctx.timing.quietMs, ctx.timing.followMs);
}
