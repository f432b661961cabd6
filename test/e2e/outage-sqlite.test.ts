/**
 * The SQLite file locked under a running `serve` (another connection holds an exclusive
 * transaction, as a backup tool or a stray `sqlite3` shell would) and released: the
 * scenario in outage-harness.ts, as for a Postgres outage. Reads of the file still work
 * meanwhile (WAL), but every write waits for the lock, so the bot says it cannot use its
 * database: its busy wait is short, and once one write found the file locked the others
 * are refused at once (how long the answers take: `npm run bench -- outage`).
 */
import { describeOutage, sqliteOutage } from './outage-harness.js';

describeOutage(
  'the SQLite file locked under a running serve',
  'answers every command and click that nothing was changed, drains, and recovers with nothing lost or doubled',
  () => sqliteOutage('COUTAGESQL'),
);
