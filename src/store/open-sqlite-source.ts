/**
 * Opens an existing SQLite database to be read from and never written (the source of
 * `migrate-store`): the file stays exactly as the bot left it, so an operator can go back
 * to it if anything about the move goes wrong. A file from an older version, whose schema
 * is behind this version's migrations, is copied into memory and migrated there; the file
 * itself is still not touched.
 */
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DatabaseOpenError, databaseOpenError } from './database-open-error.js';
import { migrateSqlite } from './migrate.js';
import { migrations } from './migrations/index.js';
import type { Db } from './open-database.js';

export interface SqliteSource {
  db: Db;
  /** The file's schema version (user_version) as found, before any in-memory migration. */
  fileVersion: number;
  /** True when the file was behind and an in-memory copy, migrated, is what `db` reads. */
  migratedCopy: boolean;
  /**
   * True when a non-empty write-ahead log lies beside the file: a process still has it
   * open (or one stopped without closing it). Whatever that process writes after the copy
   * began is not copied.
   */
  walInUse: boolean;
  close(): void;
}

export function openSqliteSource(path: string): SqliteSource {
  if (!existsSync(path)) {
    throw new DatabaseOpenError(
      'db_cannot_open',
      `DATABASE_PATH=${path} does not exist. Set DATABASE_PATH to the SQLite file the bot has been using (default data/visibility.db, /app/data/visibility.db in the Docker image).`,
    );
  }
  let file: Db | undefined;
  try {
    file = new Database(path, { readonly: true, fileMustExist: true });
    // Another process may be writing (it should not be): wait for its short transactions.
    file.pragma('busy_timeout = 5000');
    const fileVersion = file.pragma('user_version', { simple: true }) as number;
    const latest = Math.max(...migrations.map((m) => m.version));
    if (fileVersion > latest) {
      throw new DatabaseOpenError(
        'db_open_failed',
        `DATABASE_PATH=${path} has schema version ${fileVersion}, newer than this version of the bot knows (${latest}). Run migrate-store with the same (or a newer) version of the bot as the one that last used this file.`,
      );
    }
    const walInUse = walHasContent(path);
    if (fileVersion === latest) {
      const db = file;
      return { db, fileVersion, migratedCopy: false, walInUse, close: () => db.close() };
    }
    // serialize() reads the whole database as one consistent snapshot (the WAL included).
    const image = file.serialize();
    // Header bytes 18 and 19 say "WAL" (2) for a bot's file; an in-memory database cannot
    // use a write-ahead log and refuses to open such an image, so it is marked as a
    // rollback-journal database (1), which is all it needs to be in memory.
    image[18] = 1;
    image[19] = 1;
    const copy = new Database(image);
    file.close();
    file = undefined;
    migrateSqlite(copy, migrations);
    return { db: copy, fileVersion, migratedCopy: true, walInUse, close: () => copy.close() };
  } catch (err) {
    file?.close();
    if (err instanceof DatabaseOpenError) throw err;
    throw databaseOpenError(path, err);
  }
}

function walHasContent(path: string): boolean {
  try {
    return statSync(`${path}-wal`).size > 0;
  } catch {
    return false;
  }
}
