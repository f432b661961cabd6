/**
 * Replicas benchmark (`npm run bench -- replicas [--quick]`, or `npx tsx bench/replicas.ts`):
 * the same workload (N brands subscribed through the slash command, every job's alert and
 * a digest due; test/e2e/replicas-harness.ts) delivered by 1 `serve` on SQLite, 1 on
 * Postgres and 3 on Postgres, each a real process with the plan's "minute" compressed to
 * `windowMs`. For each: how long until every outbox row was settled (from the moment all
 * replicas listen), Slack posts per second while posting, and what the API saw against the
 * plan: requests, the busiest window, the most any stretch went beyond the key's bucket,
 * the busiest endpoint window, 429s. The budget, not the replica count, must bound the
 * API calls. Figures are printed, never asserted; the machine's load average is shown
 * beside them.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { PLAN_LIMITS } from '../src/api/plans.js';
import type { PlanName } from '../src/plan-names.js';
import { checkApiPacing, startReplicaWorld, waitUntil } from '../test/e2e/replicas-harness.js';
import { startPostgresServer } from '../test/helpers/postgres-server.js';

export interface ReplicasBenchOptions {
  quick?: boolean;
  /** Brands (default 60; quick: 20). */
  brands?: number;
  /** Length of the compressed "minute" (default 3000 ms: 20× real time). */
  windowMs?: number;
  /**
   * The plan paced to (default `test`: a bucket of 30 refilled at 20 per minute, which the
   * workload exhausts, so the budget, not the replica count, decides the API's pace).
   */
  plan?: PlanName;
}

interface Scenario {
  label: string;
  replicas: number;
  backend: 'sqlite' | 'postgres';
}

const SCENARIOS: Scenario[] = [
  { label: 'SQLite, 1 serve', replicas: 1, backend: 'sqlite' },
  { label: 'Postgres, 1 serve', replicas: 1, backend: 'postgres' },
  { label: 'Postgres, 3 serve', replicas: 3, backend: 'postgres' },
];

const JOBS = ['citations', 'crawler', 'ai-pages', 'digest'];

async function measure(
  s: Scenario,
  brands: number,
  windowMs: number,
  plan: PlanName,
  databaseUrl: string | undefined,
) {
  const world = await startReplicaWorld({
    brands,
    plan,
    channels: Math.max(1, Math.ceil(brands / 5)),
    windowMs,
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  try {
    const before = world.sim.requests.length;
    const loadBefore = loadavg()[0]!;
    await Promise.all(Array.from({ length: s.replicas }, (_, i) => world.spawnServe(`r${i + 1}`)));
    const started = Date.now();
    await waitUntil(
      'every job run and every row settled',
      async () => {
        const runs = await world.store.jobRuns.recent(50);
        if (!JOBS.every((j) => runs.some((r) => r.job === j && r.finishedAtMs !== null))) return false;
        const rows = await world.outboxRows();
        return rows.length > 0 && rows.every((r) => r.status === 'sent' || r.status === 'failed');
      },
      600_000,
      250,
    );
    const deliveredMs = Date.now() - started;
    const posts = world.slack.calls.filter(
      (c) =>
        (c.method === 'chat.postMessage' || c.method === 'files.completeUploadExternal') && c.status === 200,
    );
    const first = posts[0]?.at ?? started;
    const last = posts.at(-1)?.at ?? started;
    const pacing = checkApiPacing(world.sim.requests.slice(before), world.limits, windowMs);
    const busiestEndpoint = Object.entries(pacing.endpoints).sort((a, b) => b[1].max - a[1].max)[0];
    return {
      deliveredMs,
      posts: posts.length,
      postsPerSec: posts.length / Math.max(0.001, (last - first) / 1000),
      pacing,
      busiestEndpoint,
      limits: world.limits,
      load: `${loadBefore.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`,
    };
  } finally {
    await world.close();
  }
}

export async function runReplicasBench(options: ReplicasBenchOptions = {}): Promise<string[]> {
  const brands = options.brands ?? (options.quick ? 20 : 60);
  const windowMs = options.windowMs ?? 3000;
  const plan = options.plan ?? 'test';
  const { burst, perMinute } = PLAN_LIMITS[plan];
  const server = await startPostgresServer();
  const lines = [
    `${brands} brands (every job's alert and a digest due), plan ${plan} compressed: bucket ${burst} refilled at ${perMinute} per ${windowMs} ms, docs/api.md's endpoint limits per ${windowMs} ms; the API sends no rate-limit headers`,
    '  setup              | delivered in | posts | posts/s | API calls | busiest window | over bucket | busiest endpoint | 429s | load avg',
  ];
  let n = 0;
  try {
    for (const s of SCENARIOS) {
      let url: string | undefined;
      if (s.backend === 'postgres') {
        n += 1;
        const name = `bench_replicas_${process.pid}_${n}`;
        const admin = new pg.Client({ connectionString: server.adminUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const u = new URL(server.adminUrl);
        u.pathname = `/${name}`;
        url = u.toString();
      }
      const m = await measure(s, brands, windowMs, plan, url);
      const [endpoint, window] = m.busiestEndpoint ?? ['-', { max: 0, limit: 0 }];
      lines.push(
        `  ${s.label.padEnd(18)} | ${`${(m.deliveredMs / 1000).toFixed(1)} s`.padStart(12)} | ${String(m.posts).padStart(5)} | ${m.postsPerSec.toFixed(2).padStart(7)} | ${String(m.pacing.calls).padStart(9)} | ${`${m.pacing.maxPerWindow} (≤ ${m.limits.burst + m.limits.perMinute})`.padStart(14)} | ${m.pacing.bucketExcess.toFixed(1).padStart(11)} | ${`${endpoint} ${window.max}/${window.limit}`.padStart(16)} | ${String(m.pacing.rateLimited).padStart(4)} | ${m.load}`,
      );
    }
  } finally {
    await server.stop();
  }
  lines.push(
    '  "busiest window": most requests in one compressed minute (a full bucket plus one minute of refill at most); "over bucket": most requests any stretch sent beyond what the bucket allows (≤ 0 = within the plan).',
  );
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await runReplicasBench({ quick: process.argv.includes('--quick') })) console.log(line);
}
