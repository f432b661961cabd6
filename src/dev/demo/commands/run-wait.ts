/**
 * `:wait [seconds]`: waits for the bot's background work to show up in Slack (a content
 * ideas refresh completing, say), at most `seconds` (default DemoTiming.backgroundMs), then
 * for the burst to settle, and shows it. At a terminal such news prints by itself; a tour
 * or script says `:wait` where it expects some, so its output is the same every run.
 */
import type { ConsoleContext } from '../console-context.js';
import { ConsoleInputError } from '../console-input-error.js';
import { pendingCount, showPending } from '../show-pending.js';
import { waitForQuiet } from '../wait-for-quiet.js';

const MAX_SECONDS = 600;

export async function runWait(ctx: ConsoleContext, args: readonly string[]): Promise<void> {
  const { stack, io, timing } = ctx;
  const given = args[0];
  if (given !== undefined && !(/^\d+$/.test(given) && Number(given) >= 1 && Number(given) <= MAX_SECONDS))
    throw new ConsoleInputError(`:wait takes a number of seconds from 1 to ${MAX_SECONDS}.`);
  const limitMs = given === undefined ? timing.backgroundMs : Number(given) * 1000;
  // Whatever already came is news too: shown now, and the wait is over.
  if (pendingCount(ctx) === 0) {
    io.print(
      io.style.dim(`Waiting up to ${Math.round(limitMs / 1000)} s for the bot to post or update something…`),
    );
    const arrived = await stack.slack
      .waitFor(() => pendingCount(ctx) > 0, limitMs)
      .then(
        () => true,
        () => false,
      );
    if (!arrived) {
      io.print(io.style.dim(`(nothing arrived in ${Math.round(limitMs / 1000)} s)`));
      return;
    }
  }
  await waitForQuiet(stack.slack, timing.quietMs, timing.followMs);
  showPending(ctx);
}
