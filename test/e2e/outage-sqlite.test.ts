/**
 * The SQLite file locked under a running `serve` (another connection holds an exclusive
 * transaction, as a backup tool or a stray `sqlite3` shell would) and released: the
 * scenario in outage-harness.ts, as for a Postgres outage. Reads of the file still work
 * meanwhile (WAL), but every write waits for the lock, so the bot says it cannot use its
 * database: its busy wait is short, and once one write found the file locked the others
 * are refused at once (how long the answers take: `npm run bench -- outage`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutageSetting, runOutageScenario, sqliteOutage } from './outage-harness.js';

let setting: OutageSetting;

beforeAll(async () => {
  setting = await sqliteOutage('COUTAGESQL');
}, 120_000);

afterAll(async () => {
  await setting?.close();
});

describe('the SQLite file locked under a running serve', () => {
  it('answers every command and click that nothing was changed, drains, and recovers with nothing lost or doubled', async () => {
    const answered = await runOutageScenario(setting.world);
    expect(answered.map((a) => a.what)).toEqual([
      'brands',
      'subscriptions',
      'subscribe',
      'aliases add',
      'Unsubscribe click',
      'help',
      'status',
    ]);
  }, 90_000);
});
