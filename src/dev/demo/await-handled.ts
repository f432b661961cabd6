/**
 * Waits for the service to finish the command or action it was just sent (see
 * DemoStack.handled), then for what it set off to reach Slack: messages the outbox relay
 * posts because of it (`unmute` releasing held alerts, posted at once), then follow-up
 * updates settling. False when the command itself timed out.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ConsoleContext } from './console-context.js';
import { waitForQuiet } from './wait-for-quiet.js';

const POLL_MS = 10;

/** Rows due within this long count as "on their way" (a channel's pace is 1 s). */
const DUE_SOON_MS = 1500;

/**
 * Whether the outbox has nothing on its way now: no row being sent, none due within a
 * pace, no hold that has just ended. Rows written for later (a mute, a digest ahead) are
 * not waited for.
 */
async function outboxSettled(ctx: ConsoleContext): Promise<boolean> {
  const { store, clock } = ctx.stack.deps;
  const outbox = store.outbox();
  const now = clock.now();
  const next = await outbox.nextPendingAt();
  if (next !== null && next <= now + DUE_SOON_MS) return false;
  if ((await outbox.counts()).sending > 0) return false;
  return !(await outbox.listHeld()).some((r) => r.holdUntilMs !== null && r.holdUntilMs <= now);
}

export async function awaitHandled(ctx: ConsoleContext, handledBefore: number): Promise<boolean> {
  const { stack, timing } = ctx;
  const deadline = performance.now() + timing.replyTimeoutMs;
  let done = false;
  for (;;) {
    done = stack.handled() > handledBefore;
    if (done || performance.now() >= deadline) break;
    await delay(POLL_MS);
  }
  const posting = performance.now() + timing.followMs;
  while (performance.now() < posting && !(await outboxSettled(ctx))) await delay(POLL_MS);
  await waitForQuiet(stack.slack, timing.quietMs, timing.followMs);
  return done;
}
