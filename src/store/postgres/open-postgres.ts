/**
 * Opens the Postgres backend: the pool from DATABASE_URL, migrated to this version's
 * schema before anything else uses it. Failures name the host, port and database, never
 * the password.
 */

import { migrations } from '../migrations/index.js';
import { createPool, type PgPool, type PoolOptions } from './create-pool.js';
import { migratePostgres } from './migrate-postgres.js';
import { describeDatabaseUrl, PostgresError, withoutPassword } from './postgres-errors.js';

export interface OpenedPostgres {
  pool: PgPool;
  /** Schema version after migrating. */
  version: number;
}

export async function openPostgres(url: string, options: PoolOptions = {}): Promise<OpenedPostgres> {
  const pool = createPool(url, options);
  try {
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      const reason = withoutPassword(err instanceof Error ? err.message : String(err), url);
      throw new PostgresError(
        'pg_unreachable',
        `DATABASE_URL: cannot connect to Postgres at ${describeDatabaseUrl(url)} (${reason}). Check the host, port, database name, user and password, and that the server accepts connections from here.`,
        { cause: err },
      );
    }
    const { version } = await migratePostgres(pool, migrations, { databaseUrl: url });
    return { pool, version };
  } catch (err) {
    try {
      await pool.end();
    } catch {
      // The error that made us give up is the one to report.
    }
    throw err;
  }
}
