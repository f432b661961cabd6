/**
 * HandledRequestsRepo (handled-requests-repo.ts has the contract), for both backends. One
 * statement decides: the insert, or the update of a key last accepted before the window,
 * returns the row; a key accepted within the window returns none. The conflict locks the
 * row (SQLite's write lock, Postgres's row lock), so two processes receiving the same
 * redelivery cannot both see it as new.
 */
import type { HandledRequestsRepo } from '../handled-requests-repo.js';
import { count, type RepoContext } from '../repo-context.js';

export function createHandledRequestsRepo(ctx: RepoContext): HandledRequestsRepo {
  return {
    async remember(key, nowMs, keepMs) {
      const taken = await ctx
        .db()
        .insertInto('handled_requests')
        .values({ request_key: key, handled_at_ms: nowMs })
        .onConflict((oc) =>
          oc
            .column('request_key')
            .doUpdateSet((eb) => ({ handled_at_ms: eb.ref('excluded.handled_at_ms') }))
            .where('handled_requests.handled_at_ms', '<', nowMs - keepMs),
        )
        .returning('request_key')
        .executeTakeFirst();
      return taken === undefined;
    },
    async purgeBefore(cutoffMs, limit) {
      const db = ctx.db();
      const q =
        limit === undefined
          ? db.deleteFrom('handled_requests').where('handled_at_ms', '<', cutoffMs)
          : db
              .deleteFrom('handled_requests')
              .where(
                'request_key',
                'in',
                ctx.sql.lockRowsSkipLocked(
                  db
                    .selectFrom('handled_requests')
                    .select('request_key')
                    .where('handled_at_ms', '<', cutoffMs)
                    .orderBy('handled_at_ms')
                    .limit(limit),
                ),
              );
      return count((await q.executeTakeFirst()).numDeletedRows);
    },
  };
}
