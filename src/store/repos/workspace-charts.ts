/** WorkspaceChartsRepo (workspace-charts-repo.ts has the contract), for both backends. */
import type { RepoContext } from '../repo-context.js';
import type { WorkspaceChartsRepo } from '../workspace-charts-repo.js';

export function createWorkspaceChartsRepo(ctx: RepoContext): WorkspaceChartsRepo {
  return {
    async rememberImages(teamId, atMs, reason) {
      await ctx
        .db()
        .insertInto('workspace_charts')
        .values({ team_id: teamId, images_since_ms: atMs, reason: reason.slice(0, 200) })
        .onConflict((oc) => oc.column('team_id').doNothing())
        .execute();
    },
    async wantsImages(teamId) {
      const row = await ctx
        .db()
        .selectFrom('workspace_charts')
        .select('team_id')
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async forget(teamId) {
      await ctx.db().deleteFrom('workspace_charts').where('team_id', '=', teamId).execute();
    },
  };
}
