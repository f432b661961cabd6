/**
 * What the bot posts while nobody typed anything (a content ideas refresh completing, a
 * scheduled alert, a note in the channel) is shown when it happens, as Slack would show
 * it: the local Slack reports every call and response_url post as it lands, and when the
 * console is waiting for a line the news is printed above the prompt, once the burst
 * settles (wait-for-quiet). While a line runs, that line shows what arrives; what comes
 * after it is picked up as soon as the console waits again. A fixed list of lines (tour,
 * script) never waits, so its output stays the same from run to run (`:wait` waits there).
 */

import type { ConsoleContext } from './console-context.js';
import type { LineSource } from './line-source.js';
import { pendingCount, showPending } from './show-pending.js';
import { waitForQuiet } from './wait-for-quiet.js';

/** Starts following; returns what stops it. */
export function followLiveUpdates(ctx: ConsoleContext, source: LineSource): () => void {
  let flushing = false;
  let stopped = false;

  const flush = async () => {
    if (flushing || stopped) return;
    flushing = true;
    try {
      await waitForQuiet(ctx.stack.slack, ctx.timing.quietMs, ctx.timing.followMs);
    } finally {
      flushing = false;
    }
    // A line may have been entered meanwhile: then it shows the news itself.
    if (stopped || !source.waiting || pendingCount(ctx) === 0) return;
    const lines: string[] = [];
    showPending({ ...ctx, io: { ...ctx.io, print: (text = '') => lines.push(text) } });
    if (lines.length > 0) source.printAbove(`${lines.join('\n')}\n`);
    // More may have landed while this printed; the next report starts another round.
  };
  const offActivity = ctx.stack.slack.onActivity(() => {
    if (source.waiting) void flush();
  });
  const offWait = source.onWait(() => {
    if (pendingCount(ctx) > 0) void flush();
  });
  return () => {
    stopped = true;
    offActivity();
    offWait();
  };
}
