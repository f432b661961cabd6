/**
 * The service side of the alerting benchmark, in its own process (bench/alerts.ts starts
 * it): a plain HTTP server answering the three endpoints the jobs read with the bodies the
 * service would send for brand `b` (bench/alerts-fixtures.ts), generated per request. Its
 * CPU is not the bot's, so it is not counted; the measured process reads real responses
 * from a real socket, as `run-job` does. argv: known fresh. Prints its port on stdout.
 */
import { createServer } from 'node:http';
import { crawlerRange } from '../src/use-cases/crawler-periods.js';
import { aiPagesRecord, BENCH_NOW_MS, citationFeed, crawlerOverview } from './alerts-fixtures.js';

const [knownArg, freshArg] = process.argv.slice(2);
const known = Number(knownArg);
const fresh = Number(freshArg);
const end = crawlerRange(BENCH_NOW_MS).endDate;

/** Brand ids are `…-<12-digit index>` (alerts-fixtures.ts brandOf). */
const indexOf = (path: string) => Number(/brand_id=[0-9a-f-]*-(\d{12})/.exec(path)?.[1] ?? Number.NaN);

const bodies: [prefix: string, body: (b: number) => unknown][] = [
  ['/get-citations', (b) => citationFeed(b, known, fresh)],
  ['/crawler/overview', (b) => crawlerOverview(b, end)],
  ['/ai-pages', (b) => aiPagesRecord(b, b % 7 === 0 ? 85 : 50)],
];

const server = createServer((req, res) => {
  const path = req.url ?? '';
  const route = bodies.find(([prefix]) => path.startsWith(prefix));
  const b = indexOf(path);
  if (!route || Number.isNaN(b)) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
    return;
  }
  const text = JSON.stringify(route[1](b));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
// Ends with its parent (the bench), however that ends.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
