/**
 * The measured part of the alerting benchmark, run in its own process so its CPU time and
 * peak RSS are the run's alone, not the setup's. argv: dbPath baseUrl. bench/alerts.ts
 * bundles this file as `npm run build` bundles the CLI and runs it with plain `node`,
 * as production runs the jobs (not through tsx, whose compiler would sit in its memory).
 * Prints one JSON line with the figures.
 *
 * The real job path, as `run-job` runs it: the citations, crawler and AI Pages jobs
 * (runJobOnce over the job context the CLI builds) call the real API client, which reads
 * each response from a real socket through undici (bench/alerts-server.ts answers in its
 * own process, so making the bodies is not counted here), parses the JSON text and
 * validates it against the client's zod schemas (api/parse-response.ts); the jobs then
 * load state, detect, build the grouped alert messages and write the new state and outbox
 * rows (the citations job four brands to a transaction on SQLite and eight on Postgres,
 * the crawler and AI Pages jobs 32). No limiter pacing (it waits; it does not compute):
 * the unlimited limiter stands in for it. The target is an SQLite file path or a
 * postgres:// URL: the same run on either backend, through the store the CLI would build
 * for it.
 */

import { ApiClient } from '../src/api/client.js';
import { unlimitedLimiter } from '../src/api/limiter/unlimited-limiter.js';
import type { Config } from '../src/config.js';
import { aiPagesJob } from '../src/jobs/ai-pages-job.js';
import { appBotHealth } from '../src/jobs/bot-health.js';
import { citationsJob } from '../src/jobs/citations-job.js';
import { crawlerJob } from '../src/jobs/crawler-job.js';
import { createJobContext } from '../src/jobs/job-context.js';
import type { JobDefinition } from '../src/jobs/job-definition.js';
import { runJobOnce } from '../src/jobs/run-job-once.js';
import { createLogger } from '../src/logger.js';
import { createSqliteStore, type SqliteStore } from '../src/store/create-sqlite-store.js';
import { openDatabase } from '../src/store/open-database.js';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/create-postgres-store.js';
import type { Store } from '../src/store/store.js';
import { BENCH_NOW_MS } from './alerts-fixtures.js';

export interface AlertsRunResult {
  cpuMs: number;
  wallMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  alerts: number;
  messages: number;
  /** Brands whose citation state was written. */
  statesSaved: number;
  failed: number;
  /** The largest V8 heap and the largest memory outside it (Buffers, native) seen, sampled every 100 ms. */
  peakHeapMb: number;
  peakOutsideHeapMb: number;
  /** The largest memory held by ArrayBuffers (Buffers: HTTP bodies, driver I/O) seen, sampled the same way. */
  peakArrayBuffersMb: number;
  /** CPU ms of each job's run, in the order they ran. */
  jobCpuMs: Record<string, number>;
  /** The process's peak RSS (MB) when each job's run ended: which job raised it. */
  jobPeakRssMb: Record<string, number>;
}

const [target, baseUrl] = process.argv.slice(2);
/** Brands whose citation state the run wrote (a changed URL's row or a new base, stamped with its time). */
async function statesSavedAt(s: Store, atMs: number): Promise<number> {
  const sql = (a: string, b: string) =>
    `SELECT COUNT(*) AS n FROM (SELECT brand_id FROM citation_state WHERE updated_at_ms = ${a}
      UNION SELECT brand_id FROM citation_state_changes WHERE updated_at_ms = ${b}) AS saved`;
  if (s.backend === 'postgres') {
    const { rows } = await (s as PostgresStore).pool.query<{ n: number }>(sql('$1', '$2'), [atMs, atMs]);
    return Number(rows[0]?.n ?? 0);
  }
  return (s as SqliteStore).db.prepare(sql('?', '?')).pluck().get(atMs, atMs) as number;
}

const cpuOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const clock = {
  now: () => BENCH_NOW_MS,
  sleep: async () => {},
};
const logger = createLogger({ level: 'silent', secrets: [] });
const onPostgres = target!.startsWith('postgres://');
const store: Store = onPostgres
  ? await openPostgresStore(target!, { clock })
  : createSqliteStore(openDatabase(target!), { clock });
const api = new ApiClient({
  baseUrl: baseUrl!,
  apiKey: `sk_live_${'b'.repeat(32)}`,
  limiter: unlimitedLimiter(),
  clock,
  logger,
});
const config = { defaultTimezone: 'UTC', opsChannel: undefined } as Config;
const outbox = store.outbox({ owner: 'bench' });
const deps = { api, store, clock, config, logger };
const health = appBotHealth(deps, outbox);
const ctx = createJobContext(deps, { outbox, health });

const result: AlertsRunResult = {
  cpuMs: 0,
  wallMs: 0,
  baselineRssMb: process.memoryUsage().rss / 1_048_576,
  peakRssMb: 0,
  alerts: 0,
  messages: 0,
  statesSaved: 0,
  failed: 0,
  peakHeapMb: 0,
  peakOutsideHeapMb: 0,
  peakArrayBuffersMb: 0,
  jobCpuMs: {},
  jobPeakRssMb: {},
};
const sampleMemory = () => {
  const m = process.memoryUsage();
  result.peakHeapMb = Math.max(result.peakHeapMb, m.heapTotal / 1_048_576);
  result.peakOutsideHeapMb = Math.max(result.peakOutsideHeapMb, (m.rss - m.heapTotal) / 1_048_576);
  result.peakArrayBuffersMb = Math.max(result.peakArrayBuffersMb, m.arrayBuffers / 1_048_576);
};
const sampler = setInterval(sampleMemory, 100);

const runStart = process.cpuUsage();
const wallStart = performance.now();
for (const job of [citationsJob, crawlerJob, aiPagesJob] satisfies JobDefinition[]) {
  const jobStart = process.cpuUsage();
  const s = await runJobOnce(ctx, job, {
    owner: 'bench',
    force: false,
    leaseWaitMs: 0,
    leaseTtlMs: 600_000,
    brandGapMs: 0,
  });
  result.jobCpuMs[job.name] = cpuOf(process.cpuUsage(jobStart));
  result.jobPeakRssMb[job.name] = process.resourceUsage().maxRSS / 1024;
  result.alerts += s.alerts;
  result.messages += s.messages;
  result.failed += s.failed + (s.status === 'ok' ? 0 : 1);
  if (s.detail && s.status !== 'ok') process.stderr.write(`${job.name}: ${s.status} ${s.detail}\n`);
}
result.cpuMs = cpuOf(process.cpuUsage(runStart));
clearInterval(sampler);
sampleMemory();
result.wallMs = performance.now() - wallStart;
result.peakRssMb = process.resourceUsage().maxRSS / 1024;
result.statesSaved = await statesSavedAt(store, BENCH_NOW_MS);
await api.close();
await store.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
