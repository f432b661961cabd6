/**
 * One series of versioned migrations for both backends: version N means the same schema
 * change on SQLite and on Postgres, and each migration carries its SQL for each (the same
 * tables in each one's types: INTEGER/bigint, TEXT/jsonb, 0/1/boolean). Each runs once,
 * in order, in a transaction of its own.
 *
 * SQLite keeps the version in user_version and applies a migration inside an IMMEDIATE
 * transaction, so two processes starting together cannot both apply it. Postgres keeps
 * the versions in `schema_migrations` (postgres/migrate-postgres.ts).
 */
import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

/**
 * The Postgres side of a migration made before Postgres was supported: its change is part of
 * the tables Postgres was created with (migration 4 says which), so there it does nothing.
 */
export const POSTGRES_STARTED_LATER = '';

/** The list in version order, refusing a gap or a duplicate (a programming error). */
export function inVersionOrder(list: readonly Migration[]): Migration[] {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  return sorted;
}

/** Brings an SQLite database up to the last version of `list`; returns the version it is at. */
export function migrateSqlite(db: Database.Database, list: readonly Migration[]): number {
  const ordered = inVersionOrder(list);
  const userVersion = () => db.pragma('user_version', { simple: true }) as number;
  // Already current (every start but the first after an upgrade): one read, instead of a
  // write transaction per migration only to find each applied. A version only grows, so
  // a database read as current stays so.
  const found = userVersion();
  if (found >= (ordered.at(-1)?.version ?? 0)) return found;
  const apply = db.transaction((m: Migration) => {
    if (userVersion() >= m.version) return;
    db.exec(m.sqlite);
    db.pragma(`user_version = ${m.version}`);
  });
  for (const m of ordered) apply.immediate(m);
  return userVersion();
}
