/** Shows everything that reached Slack since the console last showed it (late replies too). */
import { markActivity } from './activity-mark.js';
import type { ConsoleContext } from './console-context.js';
import { countShowable, showActivity } from './show-activity.js';

export function showPending(ctx: ConsoleContext): number {
  const shown = showActivity(ctx, ctx.state.shownUpTo);
  ctx.state.shownUpTo = markActivity(ctx.stack.slack);
  return shown;
}

/** How many things reached Slack that the console has not shown yet. */
export function pendingCount(ctx: ConsoleContext): number {
  return countShowable(ctx, ctx.state.shownUpTo);
}
