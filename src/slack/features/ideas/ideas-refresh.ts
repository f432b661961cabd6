/**
 * `ideas <brand> refresh`: POST /get-content-ideas {action: refresh}. Only the bot's
 * admins may (SLACK_ADMIN_USERS), every attempt is audited, and the service's answer is
 * relayed as is (a viewer brand is not refused here: docs/api.md §5 lists no role for it).
 * "already generating" starts nothing (docs/api.md §3); either way the same message is then
 * updated when the run ends.
 */

import type { CommandContext } from '../../commands/subcommand.js';
import { type Actor, auditedWrite } from '../../kit/audited-write.js';
import { followGeneration } from './follow-generation.js';
import { DEFAULT_IDEAS_PAGE } from './ideas-page.js';
import { ideasRefreshStartedReply } from './ideas-refresh-view.js';
import type { RefreshTiming } from './refresh-timing.js';

const REFRESH_IDEAS = 'refresh content ideas';

export async function runIdeasRefresh(
  ctx: CommandContext,
  brandToken: string | undefined,
  timing: RefreshTiming,
): Promise<void> {
  await ctx.requireWriter(REFRESH_IDEAS);
  const brand = await ctx.resolveBrand(brandToken);
  const actor: Actor = { userId: ctx.userId, channelId: ctx.channelId };
  const result = await auditedWrite(ctx.deps, actor, { brandId: brand.id, action: REFRESH_IDEAS }, () =>
    ctx.deps.api.refreshContentIdeas({ brandId: brand.id }),
  );
  await ctx.respond(ideasRefreshStartedReply(brand, result, DEFAULT_IDEAS_PAGE));
  // Not awaited: the command is answered; the follow-up edits that answer later.
  void ctx.deps.background.run(async (signal) => {
    const outcome = await followGeneration({
      deps: ctx.deps,
      brand,
      respond: ctx.respond,
      timing,
      limit: DEFAULT_IDEAS_PAGE,
      signal,
    });
    // Why the message stopped changing (done, timed out, failed, or the service stopping):
    // after this line the follow-up polls and posts nothing more.
    ctx.deps.logger.info({ brandId: brand.id, outcome }, 'stopped following the content ideas refresh');
  });
}
