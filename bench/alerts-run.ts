/**
 * The measured part of the alerting benchmark, run in its own process so its CPU time and
 * peak RSS are the run's alone, not the setup's. argv: dbPath brands known fresh.
 * Prints one JSON line with the figures.
 *
 * The real job path, as `run-job` runs it: the citations, crawler and AI Pages jobs
 * (runJobOnce over the job context the CLI builds) call the real API client, whose
 * transport reads each response through undici, parses the JSON text and validates it with
 * the client's zod schemas; the jobs then load state, detect, build the grouped alert
 * messages and write the new state and outbox rows, one transaction per brand and job.
 * Only the socket is left out: an undici MockAgent answers in memory with the response
 * bodies the service would send, generated on request. No limiter pacing (it waits; it
 * does not compute): the unlimited limiter stands in for it.
 */
import { MockAgent } from 'undici';
import { ApiClient } from '../src/api/client.js';
import { unlimitedLimiter } from '../src/api/limiter/unlimited-limiter.js';
import type { Config } from '../src/config.js';
import { aiPagesJob } from '../src/jobs/ai-pages-job.js';
import { appBotHealth } from '../src/jobs/bot-health.js';
import { citationsJob } from '../src/jobs/citations-job.js';
import { crawlerJob } from '../src/jobs/crawler-job.js';
import { crawlerRange } from '../src/jobs/crawler-range.js';
import { createJobContext } from '../src/jobs/job-context.js';
import type { JobDefinition } from '../src/jobs/job-definition.js';
import { runJobOnce } from '../src/jobs/run-job-once.js';
import { createLogger } from '../src/logger.js';
import { openDatabase } from '../src/store/open-database.js';
import { createOutboxRepo } from '../src/store/outbox-repo.js';
import { aiPagesRecord, BENCH_NOW_MS, citationFeed, crawlerOverview } from './alerts-fixtures.js';

export interface AlertsRunResult {
  cpuMs: number;
  cpuWithInputMs: number;
  wallMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  alerts: number;
  messages: number;
  /** Brands whose citation state row was rewritten. */
  statesSaved: number;
  failed: number;
}

const BASE_URL = 'http://bench.invalid';
const [dbPath, brandsArg, knownArg, freshArg] = process.argv.slice(2);
const brands = Number(brandsArg);
const known = Number(knownArg);
const fresh = Number(freshArg);
const cpuOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const end = crawlerRange(BENCH_NOW_MS).endDate;

/** Brand ids are `…-<12-digit index>` (alerts-fixtures.ts brandOf). */
const indexOf = (path: string) => Number(/brand_id=[0-9a-f-]*-(\d{12})/.exec(path)?.[1] ?? Number.NaN);

/** The three response bodies of brand `b`, as the service sends them (text). */
const bodies = {
  feed: (b: number) => JSON.stringify(citationFeed(b, known, fresh)),
  overview: (b: number) => JSON.stringify(crawlerOverview(b, end)),
  usage: (b: number) => JSON.stringify(aiPagesRecord(b, b % 7 === 0 ? 85 : 50)),
};

const agent = new MockAgent();
agent.disableNetConnect();
const pool = agent.get(BASE_URL);
const json = { headers: { 'content-type': 'application/json' } };
for (const [prefix, body] of [
  ['/get-citations', bodies.feed],
  ['/crawler/overview', bodies.overview],
  ['/ai-pages', bodies.usage],
] as const) {
  pool
    .intercept({ path: (p) => p.startsWith(prefix), method: 'GET' })
    .reply(200, ({ path }) => body(indexOf(path)), json)
    .persist();
}

const clock = {
  now: () => BENCH_NOW_MS,
  sleep: async () => {},
};
const logger = createLogger({ level: 'silent', secrets: [] });
const db = openDatabase(dbPath!);
const api = new ApiClient({
  baseUrl: BASE_URL,
  apiKey: `sk_live_${'b'.repeat(32)}`,
  limiter: unlimitedLimiter(),
  dispatcher: agent,
  clock,
  logger,
});
const config = { defaultTimezone: 'UTC', opsChannel: undefined } as Config;
const outbox = createOutboxRepo(db, { owner: 'bench' });
const deps = { api, db, clock, config, logger };
const health = appBotHealth(deps, outbox);
const ctx = createJobContext(deps, { outbox, health });

const result: AlertsRunResult = {
  cpuMs: 0,
  cpuWithInputMs: 0,
  wallMs: 0,
  baselineRssMb: process.memoryUsage().rss / 1_048_576,
  peakRssMb: 0,
  alerts: 0,
  messages: 0,
  statesSaved: 0,
  failed: 0,
};

const runStart = process.cpuUsage();
const wallStart = performance.now();
for (const job of [citationsJob, crawlerJob, aiPagesJob] satisfies JobDefinition[]) {
  const s = await runJobOnce(ctx, job, {
    owner: 'bench',
    force: false,
    leaseWaitMs: 0,
    leaseTtlMs: 600_000,
    brandGapMs: 0,
  });
  result.alerts += s.alerts;
  result.messages += s.messages;
  result.failed += s.failed + (s.status === 'ok' ? 0 : 1);
  if (s.detail && s.status !== 'ok') process.stderr.write(`${job.name}: ${s.status} ${s.detail}\n`);
}
result.cpuWithInputMs = cpuOf(process.cpuUsage(runStart));
result.wallMs = performance.now() - wallStart;
result.peakRssMb = process.resourceUsage().maxRSS / 1024;
// Making the fake API payloads is not the run's work: time it alone and take it out.
// (Reading the CPU clock around every request instead would cost thousands of syscalls.)
const inputStart = process.cpuUsage();
let sink = 0;
for (let b = 0; b < brands; b++) {
  sink += bodies.feed(b).length + bodies.overview(b).length + bodies.usage(b).length;
}
result.cpuMs = result.cpuWithInputMs - cpuOf(process.cpuUsage(inputStart));
if (sink === 0) throw new Error('fixture generation changed');
result.statesSaved = db
  .prepare('SELECT COUNT(*) FROM citation_state WHERE updated_at_ms = ?')
  .pluck()
  .get(BENCH_NOW_MS) as number;
await agent.close();
db.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
