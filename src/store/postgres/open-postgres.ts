/**
 * Opens the Postgres backend: the pool from DATABASE_URL, on a supported server, migrated
 * to this version's schema before anything else uses it. What stops it is said in one
 * sentence naming DATABASE_URL and what to do (postgres-errors.ts), never the password.
 */
import { migrations } from '../migrations/index.js';
import { createPool, type PgPool, type PoolOptions } from './create-pool.js';
import { migratePostgres } from './migrate-postgres.js';
import { checkServerVersion, explainStartupFailure } from './postgres-errors.js';

interface OpenedPostgres {
  pool: PgPool;
  /** Schema version after migrating. */
  version: number;
}

export async function openPostgres(url: string, options: PoolOptions = {}): Promise<OpenedPostgres> {
  const pool = createPool(url, options);
  try {
    const { rows } = await pool.query<{ v: number }>(
      "SELECT current_setting('server_version_num')::int AS v",
    );
    checkServerVersion(rows[0]?.v ?? 0, url);
    const { version } = await migratePostgres(pool, migrations, { databaseUrl: url });
    return { pool, version };
  } catch (err) {
    try {
      await pool.end();
    } catch {
      // The error that made us give up is the one to report.
    }
    throw explainStartupFailure(err, url);
  }
}
