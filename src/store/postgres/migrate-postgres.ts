/**
 * The migrations (migrations/, the series both backends share) on Postgres, applied exactly
 * once by replicas starting together: the runner holds a session advisory lock for its
 * whole run, so a second runner waits, then finds every version already in
 * `schema_migrations` and applies nothing. Each migration and its `schema_migrations` row
 * commit in one transaction (Postgres DDL is transactional), so a failed one leaves no
 * half-made tables and is retried whole at the next start.
 *
 * Releases before the shared series kept a Postgres series of its own, in which 7 was the
 * channel pace (10 in the shared one) and 4 already held what 7–9 add on SQLite. Such a
 * database is renumbered under the lock: its 7 becomes 10, and 7–9, which do nothing on
 * Postgres, are then recorded like any other version.
 */
import { inVersionOrder, type Migration } from '../migrate.js';
import { migrations } from '../migrations/index.js';
import { type PgClient, type PgPool, rollback } from './create-pool.js';
import { describeDatabaseUrl, PostgresError, withoutPassword } from './postgres-errors.js';

interface MigrateResult {
  /** Highest version recorded in the database after the run. */
  readonly version: number;
  /** Versions this run applied, in order (empty when another runner or an earlier start did). */
  readonly applied: readonly number[];
}

/**
 * Key of the advisory lock (one 64-bit number per database): "vbotmig" in ASCII read as a
 * number (0x76626f746d6967), so it will not collide with another application's lock by
 * accident. Written in decimal: PostgreSQL 15 does not read hexadecimal literals.
 */
const MIGRATION_LOCK_KEY = '33322278086076775';

interface MigrateOptions {
  /** For messages: where the database is (never the URL with its password). */
  databaseUrl?: string;
}

const BOOKKEEPING = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** The channel pace as the separate Postgres series numbered it. */
const LEGACY_CHANNEL_PACE = { version: 7, name: 'channel-pace' };
const CHANNEL_PACE_VERSION = 10;

/** A `schema_migrations` row's version in the shared series (a read-only answer, for `check`). */
export function sharedVersion(row: { version: number; name: string }): number {
  const legacy = row.version === LEGACY_CHANNEL_PACE.version && row.name === LEGACY_CHANNEL_PACE.name;
  return legacy ? CHANNEL_PACE_VERSION : row.version;
}

/** The versions recorded, after renumbering a database of the separate Postgres series. */
async function recordedVersions(client: PgClient): Promise<Set<number>> {
  await client.query('UPDATE schema_migrations SET version = $1 WHERE version = $2 AND name = $3', [
    CHANNEL_PACE_VERSION,
    LEGACY_CHANNEL_PACE.version,
    LEGACY_CHANNEL_PACE.name,
  ]);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(rows.map((r) => r.version));
}

function migrationFailed(m: Migration, err: unknown, options: MigrateOptions): PostgresError {
  const message = err instanceof Error ? err.message : String(err);
  const url = options.databaseUrl;
  const where = url ? ` on ${describeDatabaseUrl(url)}` : '';
  const reason = url ? withoutPassword(message, url) : message;
  return new PostgresError(
    'pg_migration_failed',
    `Postgres migration ${m.version} (${m.name}) failed${where}: ${reason}. Versions before it stay applied; fix the cause and start again.`,
    { cause: err },
  );
}

export async function migratePostgres(
  pool: PgPool,
  list: readonly Migration[] = migrations,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  let sorted: Migration[];
  try {
    sorted = inVersionOrder(list);
  } catch (err) {
    throw new PostgresError('pg_migrations_invalid', err instanceof Error ? err.message : String(err));
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(BOOKKEEPING);
      const known = await recordedVersions(client);
      const applied: number[] = [];
      for (const m of sorted) {
        if (known.has(m.version)) continue;
        try {
          await client.query('BEGIN');
          if (m.postgres.trim() !== '') await client.query(m.postgres);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            m.version,
            m.name,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          broken = await rollback(client);
          throw migrationFailed(m, err, options);
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
          await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
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
