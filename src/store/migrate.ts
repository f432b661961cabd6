/**
 * Versioned migrations. Each runs once, in order, inside an IMMEDIATE transaction, so two
 * processes starting together cannot both apply the same one. The schema version lives in
 * SQLite's user_version.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export function migrate(db: Database.Database, list: readonly Migration[]): number {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const apply = db.transaction((m: Migration) => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current >= m.version) return;
    db.exec(m.sql);
    db.pragma(`user_version = ${m.version}`);
  });
  for (const m of sorted) apply.immediate(m);
  return db.pragma('user_version', { simple: true }) as number;
}
