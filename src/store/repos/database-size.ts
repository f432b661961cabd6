/**
 * DatabaseSizeQueries (database-size-queries.ts has the contract), for both backends: the
 * size from the dialect (SQLite's page count × page size, Postgres's pg_database_size),
 * the rows counted per table (exact: the tables stay bounded by the retention, and status
 * is asked for by a person, not in a loop).
 */
import type { Database } from '../database.js';
import type { DatabaseSizeQueries, TableRows } from '../database-size-queries.js';
import type { RepoContext } from '../repo-context.js';

const TABLES: Record<keyof TableRows, keyof Database> = {
  subscriptions: 'subscriptions',
  messages: 'outbox',
  pollResults: 'poll_observations',
  jobRuns: 'job_runs',
  auditEntries: 'audit_log',
};

export function createDatabaseSizeQueries(ctx: RepoContext): DatabaseSizeQueries {
  const rowsOf = async (table: keyof Database) => {
    const r = await ctx
      .db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  return {
    async size() {
      const r = await ctx.db().selectNoFrom(ctx.sql.databaseBytes().as('bytes')).executeTakeFirstOrThrow();
      const rows = {} as TableRows;
      for (const [kind, table] of Object.entries(TABLES) as [keyof TableRows, keyof Database][])
        rows[kind] = await rowsOf(table);
      return { bytes: Number(r.bytes), rows };
    },
  };
}
