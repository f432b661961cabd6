/** `:home`: the user opens the App Home tab (app_home_opened); shows the view published. */
import type { ConsoleContext } from '../console-context.js';
import { showPending } from '../show-pending.js';
import { showView } from '../show-view.js';
import { waitForQuiet } from '../wait-for-quiet.js';

export async function runHome(ctx: ConsoleContext): Promise<void> {
  const { stack, io, userId } = ctx;
  const { slack } = stack;
  showPending(ctx);
  const published = () => slack.callsTo('views.publish').filter((c) => c.args['user_id'] === userId).length;
  const before = published();
  const res = await slack.event(stack.appUrl, {
    type: 'app_home_opened',
    user: userId,
    channel: `D${userId.slice(1)}`,
    tab: 'home',
  });
  if (res.status !== 200) {
    io.print(io.style.bad(`The service answered HTTP ${res.status} to app_home_opened.`));
    return;
  }
  const arrived = await slack
    .waitFor(() => published() > before, ctx.timing.replyTimeoutMs)
    .catch(() => false);
  await waitForQuiet(slack, ctx.timing.quietMs, ctx.timing.followMs);
  if (showPending(ctx) > 0) return;
  const home = slack.homeView(userId);
  if (home) showView(ctx, home, arrived ? 'your App Home' : 'your App Home (as last published)');
  else io.print(io.style.dim('(no Home view was published)'));
}
