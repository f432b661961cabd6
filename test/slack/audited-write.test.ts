/**
 * No change to a brand without its audit entry, when the database is in trouble (a real
 * SQLite file another connection locks): while it cannot be used, the change is not even
 * sent (the user is told nothing was changed); when it goes away during the change, the
 * change stands, the user is not told otherwise, and its entry is written once it answers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabaseHealth, type DatabaseHealth } from '../../src/database-health.js';
import { guardStore } from '../../src/guard-store.js';
import { auditedWrite } from '../../src/slack/kit/audited-write.js';
import { sqliteWriteProbe } from '../../src/sqlite-write-probe.js';
import { DatabaseUnavailableError } from '../../src/store/database-unavailable.js';
import type { Db } from '../../src/store/open-database.js';
import type { Store } from '../../src/store/store.js';
import { manualClock } from '../helpers/manual-clock.js';
import { captureLogger, type LogLine } from '../jobs/job-fixture.js';
import { type TempDb, tempDb } from '../store/temp-db.js';

const clock = manualClock(Date.parse('2026-11-24T09:00:00Z'));
let t: TempDb;
let holder: Db;
let health: DatabaseHealth;
let store: Store;
let logs: LogLine[];
let elapsed = 0;

beforeEach(() => {
  t = tempDb();
  holder = t.open();
  t.db.pragma('busy_timeout = 10');
  logs = [];
  elapsed = 0;
  health = createDatabaseHealth({
    backend: 'sqlite',
    probe: sqliteWriteProbe(t.db, { waitMs: 5 }),
    clock,
    logger: captureLogger(logs),
    elapsedMs: () => elapsed,
  });
  store = guardStore(t.store, health);
});
afterEach(() => {
  health.close();
  t.close();
});

const deps = () => ({ auditLog: store.auditLog, clock, database: health, logger: captureLogger(logs) });
const actor = { userId: 'U1', channelId: 'C1' };
const write = { brandId: 'brand-1', action: 'set aliases', detail: { aliases: ['Acme'] } };

describe('audited writes and a database outage', () => {
  it('sends nothing while the database cannot be used', async () => {
    holder.exec('BEGIN EXCLUSIVE');
    await expect(
      store.channelDefaults.set({ channelId: 'C1', brandId: 'b', setBy: 'U1', atMs: 1 }),
    ).rejects.toThrow(DatabaseUnavailableError);
    let sent = false;
    await expect(
      auditedWrite(deps(), actor, write, async () => {
        sent = true;
      }),
    ).rejects.toThrow(DatabaseUnavailableError);
    expect(sent).toBe(false);
    holder.exec('ROLLBACK');
    expect(await t.store.auditLog.recent(10)).toEqual([]);
  });

  it('keeps the entry of a change made while the database went away, and writes it when it is back', async () => {
    const result = await auditedWrite(deps(), actor, write, async () => {
      // The service took the change; meanwhile another connection took the file.
      holder.exec('BEGIN EXCLUSIVE');
      return 'changed';
    });
    expect(result).toBe('changed');
    const owed = logs.find((l) => l['code'] === 'audit_entry_owed');
    expect(owed?.['audit']).toMatchObject({
      userId: 'U1',
      brandId: 'brand-1',
      action: 'set aliases',
      result: 'ok',
    });
    holder.exec('ROLLBACK');
    elapsed += 1000;
    await health.check();
    await expect.poll(async () => (await store.auditLog.recent(10)).length).toBe(1);
    expect((await store.auditLog.recent(10))[0]).toMatchObject({
      userId: 'U1',
      channelId: 'C1',
      brandId: 'brand-1',
      action: 'set aliases',
      result: 'ok',
      atMs: clock.now(),
    });
  });
});
