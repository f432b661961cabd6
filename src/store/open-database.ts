/**
 * Opens the SQLite database every part of the bot shares. WAL lets `serve` and `run-job`
 * read while the other writes; busy_timeout makes a writer wait for the other process's
 * short transactions instead of failing with SQLITE_BUSY. The wait is short: the driver
 * is synchronous, so a busy wait holds the whole process (no Slack request is read or
 * acknowledged meanwhile), and a file locked for longer is an outage the caller answers
 * (store/database-unavailable.ts), not something to sit out.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { databaseOpenError } from './database-open-error.js';
import { migrateSqlite } from './migrate.js';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;

interface OpenDatabaseOptions {
  /** ms a writer waits for another process's lock; default 1000 (well inside Slack's 3 s) */
  busyTimeoutMs?: number;
}

/**
 * Opens (creating the folder and file when missing) and migrates the database. Failures
 * throw a DatabaseOpenError naming DATABASE_PATH, the path and what to do.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  let db: Db | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 1000}`);
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // SQLite's own default page cache (2 MB) instead of the driver's build's 16 MB: a jobs
    // run reads each brand's rows once, so a bigger cache held memory (the alerts bench's
    // peak RSS) without sparing reads; the OS keeps the file's pages cached anyway.
    db.pragma('cache_size = -2000');
    migrateSqlite(db, migrations);
    return db;
  } catch (err) {
    db?.close();
    throw databaseOpenError(path, err);
  }
}
