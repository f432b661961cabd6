/**
 * Versioned Postgres migrations that replicas starting together apply exactly once: the
 * runner holds a session advisory lock for its whole run, so a second runner waits, then
 * finds every version already in `schema_migrations` and applies nothing. Each migration
 * and its `schema_migrations` row commit in one transaction (Postgres DDL is
 * transactional), so a failed one leaves no half-made tables and is retried whole at the
 * next start.
 */
import { type PgPool, rollback } from './create-pool.js';
import { describeDatabaseUrl, PostgresError, withoutPassword } from './postgres-errors.js';

export interface PostgresMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export interface MigrateResult {
  /** Highest version recorded in the database after the run. */
  readonly version: number;
  /** Versions this run applied, in order (empty when another runner or an earlier start did). */
  readonly applied: readonly number[];
}

/**
 * Key of the advisory lock (one 64-bit number per database): "vbotmig" in ASCII, so it
 * will not collide with another application's lock by accident.
 */
export const MIGRATION_LOCK_KEY = '0x76626f746d6967';

export interface MigrateOptions {
  /** For messages: where the database is (never the URL with its password). */
  databaseUrl?: string;
}

function checkList(list: readonly PostgresMigration[]): PostgresMigration[] {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new PostgresError(
        'pg_migrations_invalid',
        `Migration ${m.name} has version ${m.version}, expected ${i + 1}`,
      );
    }
  });
  return sorted;
}

export async function migratePostgres(
  pool: PgPool,
  list: readonly PostgresMigration[],
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const sorted = checkList(list);
  const where = options.databaseUrl ? ` on ${describeDatabaseUrl(options.databaseUrl)}` : '';
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // bigint literal in hex, cast server-side: one lock for the whole database.
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY}::bigint)`);
    try {
      await client.query(`
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`);
      const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const known = new Set(done.rows.map((r) => r.version));
      const applied: number[] = [];
      for (const m of sorted) {
        if (known.has(m.version)) continue;
        try {
          await client.query('BEGIN');
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            m.version,
            m.name,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          broken = await rollback(client);
          const message = err instanceof Error ? err.message : String(err);
          const reason = options.databaseUrl ? withoutPassword(message, options.databaseUrl) : message;
          throw new PostgresError(
            'pg_migration_failed',
            `Postgres migration ${m.version} (${m.name}) failed${where}: ${reason}. Versions before it stay applied; fix the cause and start again.`,
            { cause: err },
          );
        }
        applied.push(m.version);
        known.add(m.version);
      }
      // A newer release may have migrated further (a rolling deploy runs old and new side
      // by side): its versions are reported, not refused.
      return { version: Math.max(0, ...known), applied };
    } finally {
      if (!broken) {
        try {
          await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY}::bigint)`);
        } catch (err) {
          broken = err instanceof Error ? err : new Error('unlock failed');
        }
      }
    }
  } finally {
    // A connection that could not roll back or unlock is destroyed: closing it releases
    // the session's advisory lock on the server.
    client.release(broken);
  }
}
