/**
 * `:jobs [job]`: runs the scheduled jobs once, now (what the scheduler would do at its next
 * tick), and shows every message they left in a channel. It subscribes nothing itself: with
 * no subscription it says how to make one instead of running, and it names staged brands
 * no channel is subscribed to, and alerts the jobs wrote but a mute or quiet hours hold.
 */

import { agree, counted } from '../../../figures/plural.js';
import { isJobTarget, JOB_NAMES } from '../../../use-cases/job-names.js';
import { markActivity } from '../activity-mark.js';
import { channelLabel } from '../channel-label.js';
import { chartFileLines } from '../chart-files.js';
import type { ConsoleContext } from '../console-context.js';
import { ConsoleInputError } from '../console-input-error.js';
import type { ShownClickable } from '../console-state.js';
import { DEMO_BRANDS, resolveDemoBrand } from '../demo-brands.js';
import { renderMessage } from '../render/render-blocks.js';
import { showPending } from '../show-pending.js';
import { waitForQuiet } from '../wait-for-quiet.js';

/** The brand the hints name when nothing was staged: the seed brand with every feature. */
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

/**
 * Whether there is anyone to alert; prints what to do when not. Staged brands no channel is
 * subscribed to are named: their alerts have nowhere to go.
 */
async function checkSubscribed(ctx: ConsoleContext): Promise<boolean> {
  const { io, state } = ctx;
  // Asked of the store, not remembered: a typed `unsubscribe` counts too.
  const subscribed = await ctx.stack.deps.store.subscriptions.listAll();
  if (subscribed.length === 0) {
    const brand = [...state.staged][0] ?? DEFAULT_BRAND;
    io.print(
      `No channel is subscribed to a brand yet, so the jobs would have nobody to alert. Subscribe this one first: ${io.style.accent(`/visibility subscribe "${brand}"`)}, then :jobs.`,
    );
    return false;
  }
  const brandIds = new Set(subscribed.map((s) => s.brandId));
  for (const name of state.staged) {
    const brand = resolveDemoBrand(name);
    if (brand && !brandIds.has(brand.id))
      io.print(
        io.style.dim(
          `${name} is staged but no channel is subscribed to it, so its alerts go nowhere: /visibility subscribe "${name}" first.`,
        ),
      );
  }
  return true;
}

/** Alert messages the run wrote but a mute, a snooze or quiet hours hold (runJobs' summary). */
function heldBy(result: unknown): number {
  const jobs = (result as { jobs?: unknown } | undefined)?.jobs;
  if (!Array.isArray(jobs)) return 0;
  return jobs.reduce((n: number, j: { held?: unknown }) => n + (typeof j.held === 'number' ? j.held : 0), 0);
}

export async function runJobsCommand(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const { stack, io, state } = ctx;
  const { style } = io;
  const job = args[0] ?? 'all';
  if (!isJobTarget(job))
    throw new ConsoleInputError(`Jobs: ${[...JOB_NAMES, 'all'].join(', ')} (default all).`);
  if (!(await checkSubscribed(ctx))) return;
  showPending(ctx);

  const before = snapshot(ctx);
  io.print(style.accent(`Running the ${job === 'all' ? 'scheduled jobs' : `${job} job`} once…`));
  let held = 0;
  try {
    held = heldBy(await ctx.runJobs(stack.deps, job));
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
      for (const line of chartFileLines(
        ctx,
        (m.files ?? []).map((f) => f.id),
      ))
        io.print(line);
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
  const heldLine =
    held === 0
      ? ''
      : ` ${counted(held, 'alert message')} ${agree(held, 'is', 'are')} held by a mute, a snooze or quiet hours: posted when the hold ends (or at once with /visibility unmute or quiet=off); /visibility subscriptions shows ${agree(held, 'it', 'them')}.`;
  if (count > 0) io.print(`The jobs ran: ${counted(count, 'message')} posted or updated.${heldLine}`);
  else if (held > 0) io.print(`The jobs ran; nothing was posted.${heldLine}`);
  else
    io.print(
      `The jobs ran; nothing new was posted. Stage something first: :usage "${DEFAULT_BRAND}" 92, :traffic acme 0.4 or :advance.`,
    );
}
