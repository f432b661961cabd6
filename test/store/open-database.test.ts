/**
 * A database already at the last version is opened with one read of its version, not a
 * write transaction per migration: `run-job` starts while another process (serve, in the
 * middle of a transaction) holds the write lock, instead of waiting for it or failing
 * once busy_timeout has passed.
 */
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open-database.js';
import { tempDb } from './temp-db.js';

const lastVersion = Math.max(...migrations.map((m) => m.version));

describe('opening a database already at the last version', () => {
  it('does not wait for the write lock another connection holds', () => {
    const t = tempDb();
    try {
      const other = t.open();
      other.exec('BEGIN IMMEDIATE');
      const db = openDatabase(t.path, { busyTimeoutMs: 0 });
      expect(db.pragma('user_version', { simple: true })).toBe(lastVersion);
      db.close();
      other.exec('ROLLBACK');
    } finally {
      t.close();
    }
  });
});
