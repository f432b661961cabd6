/** A database file in a fresh temp directory (WAL needs a real file), removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../src/store/create-sqlite-store.js';
import { type Db, openDatabase } from '../../src/store/open-database.js';
import type { OutboxRepo } from '../../src/store/outbox-repo.js';
import type { Store } from '../../src/store/store.js';

export interface TempDb {
  path: string;
  db: Db;
  /** The Store on `db` (closed with the file, not before). */
  store: SqliteStore;
  /** Another connection to the same file, as a second process would have. */
  open(): Db;
  close(): void;
}

export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'visibility-store-'));
  const path = join(dir, 'test.db');
  const opened: Db[] = [];
  const open = () => {
    const db = openDatabase(path);
    opened.push(db);
    return db;
  };
  const db = open();
  return {
    path,
    db,
    store: createSqliteStore(db, { closesDatabase: false }),
    open,
    close() {
      for (const d of opened) if (d.open) d.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The SQLite handle under a store, for tests that read its tables directly. */
export function sqliteDbOf(store: Store): Db {
  if (store.backend !== 'sqlite') throw new Error(`expected the SQLite store, got ${store.backend}`);
  return (store as SqliteStore).db;
}

/** A settable clock for repositories that read the time themselves. */
/** A fresh database and its outbox repository (owner "me") for every test of a file. */
export function useTempOutbox(): { readonly t: TempDb; readonly outbox: OutboxRepo } {
  let t: TempDb | undefined;
  let outbox: OutboxRepo | undefined;
  beforeEach(() => {
    t = tempDb();
    outbox = createSqliteStore(t.db).outbox({ owner: 'me' });
  });
  afterEach(() => t?.close());
  return {
    get t() {
      return t!;
    },
    get outbox() {
      return outbox!;
    },
  };
}

export function manualClock(start = Date.parse('2025-03-01T09:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    sleep: async () => {},
    set(ms: number) {
      now = ms;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}
