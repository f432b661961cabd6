/** Shows everything that reached Slack since the console last showed it (late replies too). */
import { markActivity } from './activity-mark.js';
import type { ConsoleContext } from './console-context.js';
import { showActivity } from './show-activity.js';

export function showPending(ctx: ConsoleContext): number {
  const shown = showActivity(ctx, ctx.state.shownUpTo);
  ctx.state.shownUpTo = markActivity(ctx.stack.slack);
  return shown;
}
