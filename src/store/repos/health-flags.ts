/**
 * HealthFlagsRepo (health-flags-repo.ts has the contract and the episode rules), for both
 * backends. raise and clear read the flag and decide in one transaction, the read locking
 * the row (Postgres; SQLite's transactions run one at a time), so a replica raising or
 * clearing the same flag at the same moment waits and then decides on the row as the first
 * one left it: one new episode, reported once. (clear first reads without the lock, and
 * takes it only for a flag that is up.)
 */
import type { Row } from '../database.js';
import type { HealthFlag, HealthFlagsRepo, HealthReport } from '../health-flags-repo.js';
import type { RepoContext } from '../repo-context.js';

const fromRow = (r: Row<'health_flags'>): HealthFlag => ({
  key: r.key,
  detail: r.detail,
  raisedAtMs: r.raised_at_ms,
  raisedReportedAtMs: r.raised_reported_at_ms,
  clearedAtMs: r.cleared_at_ms,
  clearedReportedAtMs: r.cleared_reported_at_ms,
});

// Long by design: one short method per query of the health_flags table; each reads alone.
export function createHealthFlagsRepo(ctx: RepoContext): HealthFlagsRepo {
  const flags = () => ctx.db().selectFrom('health_flags').selectAll();
  const update = (key: string) => ctx.db().updateTable('health_flags').where('key', '=', key);
  const get = async (key: string) => {
    const r = await flags().where('key', '=', key).executeTakeFirst();
    return r ? fromRow(r) : null;
  };
  const locked = async (key: string) => {
    const r = await ctx.sql.lockRows(flags().where('key', '=', key)).executeTakeFirst();
    return r ? fromRow(r) : null;
  };

  const raise = (key: string, detail: string | null, nowMs: number) =>
    ctx.transaction(async () => {
      for (;;) {
        const f = await locked(key);
        if (!f) {
          const inserted = await ctx
            .db()
            .insertInto('health_flags')
            .values({ key, detail, raised_at_ms: nowMs })
            .onConflict((oc) => oc.column('key').doNothing())
            .returning('key')
            .executeTakeFirst();
          if (inserted) return true;
          // Another replica inserted it after our read: decide again on its row.
          continue;
        }
        if (f.clearedAtMs === null) {
          await update(key).set({ detail }).execute();
          return false;
        }
        // Cleared but the clearing was never reported: as far as anyone was told, it never
        // stopped. Undo the clear instead of announcing the same problem twice.
        if (f.clearedReportedAtMs === null && f.raisedReportedAtMs !== null) {
          await update(key).set({ detail, cleared_at_ms: null }).execute();
          return false;
        }
        await update(key)
          .set({
            detail,
            raised_at_ms: nowMs,
            raised_reported_at_ms: null,
            cleared_at_ms: null,
            cleared_reported_at_ms: null,
          })
          .execute();
        return true;
      }
    });

  // Nearly every call finds nothing to clear (every job run clears its flags): a read
  // without a lock answers those, as a clear just before a raise would; a flag that is
  // up is then cleared under the lock, deciding on the row as it is by then.
  const clear = async (key: string, nowMs: number) => {
    const seen = await get(key);
    if (!seen || seen.clearedAtMs !== null) return false;
    return ctx.transaction(async () => {
      const f = await locked(key);
      if (!f || f.clearedAtMs !== null) return false;
      // Raised and gone before anyone was told: nothing to report either way.
      if (f.raisedReportedAtMs === null)
        await ctx.db().deleteFrom('health_flags').where('key', '=', key).execute();
      else await update(key).set({ cleared_at_ms: nowMs }).execute();
      return true;
    });
  };

  return {
    raise,
    clear,
    async pendingReports() {
      const rows = await flags()
        .where((eb) =>
          eb.or([
            eb('raised_reported_at_ms', 'is', null),
            eb.and([eb('cleared_at_ms', 'is not', null), eb('cleared_reported_at_ms', 'is', null)]),
          ]),
        )
        .orderBy('raised_at_ms')
        .orderBy('key')
        .execute();
      const out: HealthReport[] = [];
      for (const r of rows.map(fromRow)) {
        if (r.raisedReportedAtMs === null)
          out.push({ key: r.key, event: 'raised', detail: r.detail, atMs: r.raisedAtMs });
        else if (r.clearedAtMs !== null)
          out.push({ key: r.key, event: 'cleared', detail: r.detail, atMs: r.clearedAtMs });
      }
      return out;
    },
    async markReported(key, event, nowMs) {
      const set = event === 'raised' ? { raised_reported_at_ms: nowMs } : { cleared_reported_at_ms: nowMs };
      await update(key).set(set).execute();
    },
    active: async () =>
      (await flags().where('cleared_at_ms', 'is', null).orderBy('raised_at_ms').orderBy('key').execute()).map(
        fromRow,
      ),
    get,
  };
}
