/**
 * `:jobs [job]`: runs the scheduled jobs once, now (what the scheduler would do at its next
 * tick), after making sure #general is subscribed to the demo brands, and shows every
 * message they left in a channel.
 */
import { isJobTarget, JOB_NAMES } from '../../../alerting/job-names.js';
import { markActivity } from '../activity-mark.js';
import { channelLabel } from '../channel-label.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleInputError } from '../console-input-error.js';
import type { ShownClickable } from '../console-state.js';
import { DEMO_BRANDS, resolveDemoBrand } from '../demo-brands.js';
import { renderMessage } from '../render/render-blocks.js';
import { showPending } from '../show-pending.js';
import { waitForQuiet } from '../wait-for-quiet.js';
import { runSlashCommand } from './run-slash-command.js';

/** The brand `:jobs` watches when nothing was staged: the seed brand with every feature. */
const DEFAULT_BRAND = DEMO_BRANDS[0]!.name;

type Snapshot = Map<string, string>;

function channelsToScan(ctx: ConsoleContext): string[] {
  const posted = ctx.stack.slack
    .callsTo('chat.postMessage')
    .map((c) => c.response['channel'])
    .filter((c): c is string => typeof c === 'string');
  return [...new Set([ctx.channelId, ...posted])];
}

function snapshot(ctx: ConsoleContext): Snapshot {
  const seen: Snapshot = new Map();
  for (const channel of channelsToScan(ctx)) {
    for (const m of ctx.stack.slack.messages(channel)) seen.set(`${channel} ${m.ts}`, m.edited ?? '');
  }
  return seen;
}

async function subscribeFirst(ctx: ConsoleContext): Promise<void> {
  const { io, state } = ctx;
  // Asked of the store, not remembered: a typed `unsubscribe` must count too.
  const subscriptions = ctx.stack.deps.store.subscriptions;
  const wanted: string[] = [];
  for (const name of [DEFAULT_BRAND, ...state.staged]) {
    const brand = resolveDemoBrand(name);
    if (!brand || (await subscriptions.get(ctx.channelId, brand.id)) === null) wanted.push(name);
  }
  for (const brand of new Set(wanted)) {
    io.print(io.style.accent(`First, #general subscribes to ${brand}: /visibility subscribe "${brand}"`));
    await runSlashCommand(ctx, `/visibility subscribe "${brand}"`);
  }
}

export async function runJobsCommand(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const { stack, io, state } = ctx;
  const { style } = io;
  const job = args[0] ?? 'all';
  if (!isJobTarget(job))
    throw new ConsoleInputError(`Jobs: ${[...JOB_NAMES, 'all'].join(', ')} (default all).`);
  await subscribeFirst(ctx);
  showPending(ctx);

  const before = snapshot(ctx);
  io.print(style.accent(`Running the ${job === 'all' ? 'scheduled jobs' : `${job} job`} once…`));
  try {
    await ctx.runJobs(stack.deps, job);
  } catch (err) {
    io.print(style.bad(`The jobs failed: ${err instanceof Error ? err.message : String(err)}`));
  }
  await waitForQuiet(stack.slack, ctx.timing.quietMs, ctx.timing.followMs);

  const shown: ShownClickable[] = [];
  let count = 0;
  for (const channel of channelsToScan(ctx)) {
    for (const m of stack.slack.messages(channel)) {
      const previous = before.get(`${channel} ${m.ts}`);
      if (previous === (m.edited ?? '')) continue;
      count += 1;
      const rendered = renderMessage(m, { style, tokens: io.tokens, firstNumber: shown.length + 1 });
      const where = channelLabel(channel, ctx.channelId);
      io.print();
      io.print(
        style.dim(`── visibility-bot ${previous === undefined ? 'posted' : 'updated a message'} in ${where}`),
      );
      for (const line of rendered.lines) io.print(line);
      shown.push(
        ...rendered.clickables.map((c) => ({
          ...c,
          target: { kind: 'message' as const, channelId: channel, messageTs: m.ts },
        })),
      );
    }
  }
  // Shown here from the channels themselves; not again as Web API calls.
  state.shownUpTo = markActivity(stack.slack);
  if (shown.length > 0) state.clickables = shown;
  io.print();
  io.print(
    count === 0
      ? 'The jobs ran; nothing new was posted. Stage something first: :usage "Acme Analytics" 92, :traffic acme 0.4 or :advance.'
      : `The jobs ran: ${count} message${count === 1 ? '' : 's'} posted or updated.`,
  );
}
