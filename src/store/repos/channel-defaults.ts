/**
 * ChannelDefaultsRepo (channel-defaults-repo.ts has the contract), for both backends: one
 * row per channel, replaced by one INSERT … ON CONFLICT, so two replicas setting a default
 * at once leave one of the two, never an error.
 */
import type { ChannelDefaultsRepo } from '../channel-defaults-repo.js';
import { count, type RepoContext } from '../repo-context.js';

export function createChannelDefaultsRepo(ctx: RepoContext): ChannelDefaultsRepo {
  return {
    async get(channelId) {
      const r = await ctx
        .db()
        .selectFrom('channel_defaults')
        .select('brand_id')
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return r?.brand_id;
    },
    async set(row) {
      await ctx
        .db()
        .insertInto('channel_defaults')
        .values({ channel_id: row.channelId, brand_id: row.brandId, set_by: row.setBy, set_at_ms: row.atMs })
        .onConflict((oc) =>
          oc.column('channel_id').doUpdateSet((eb) => ({
            brand_id: eb.ref('excluded.brand_id'),
            set_by: eb.ref('excluded.set_by'),
            set_at_ms: eb.ref('excluded.set_at_ms'),
          })),
        )
        .execute();
    },
    async clear(channelId) {
      const r = await ctx
        .db()
        .deleteFrom('channel_defaults')
        .where('channel_id', '=', channelId)
        .executeTakeFirst();
      return count(r.numDeletedRows) > 0;
    },
  };
}
