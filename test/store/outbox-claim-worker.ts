/**
 * A separate process that claims outbox rows until none are left, for the concurrency test.
 * argv: dbPath owner batchSize. Prints "ready", waits for a line on stdin so that all
 * workers start claiming together, then prints the claimed ids as JSON.
 */
import { once } from 'node:events';
import { createSqliteStore } from '../../src/store/create-sqlite-store.js';
import { openDatabase } from '../../src/store/open-database.js';

const [dbPath, owner, batch] = process.argv.slice(2);
// Four processes on a loaded 2-core machine can hold each other's write lock for longer
// than the product's 5 s wait; the test is about who gets which row, not about that wait.
const db = openDatabase(dbPath!, { busyTimeoutMs: 60_000 });
const outbox = createSqliteStore(db).outbox({ owner: owner! });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const claimed: number[] = [];
for (;;) {
  const rows = await outbox.claimDue(Date.now(), Number(batch));
  if (rows.length === 0) break;
  for (const r of rows) claimed.push(r.id);
  // A little work per batch, as a relay posting to Slack would do, so the workers overlap.
  const until = performance.now() + 0.2;
  while (performance.now() < until) {
    // spin
  }
}
db.close();
process.stdout.write(`${JSON.stringify(claimed)}\n`);
process.stdin.destroy();
