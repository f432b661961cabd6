/**
 * Waits for the service to finish the command or action it was just sent (see
 * DemoStack.handled), then for follow-up updates to settle. False when it timed out.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ConsoleContext } from './console-context.js';
import { waitForQuiet } from './wait-for-quiet.js';

const POLL_MS = 10;

export async function awaitHandled(ctx: ConsoleContext, handledBefore: number): Promise<boolean> {
  const { stack, timing } = ctx;
  const deadline = performance.now() + timing.replyTimeoutMs;
  let done = false;
  for (;;) {
    done = stack.handled() > handledBefore;
    if (done || performance.now() >= deadline) break;
    await delay(POLL_MS);
  }
  await waitForQuiet(stack.slack, timing.quietMs, timing.followMs);
  return done;
}
