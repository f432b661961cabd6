/**
 * Replicas end to end (issue 13): three `serve` processes and one `run-job all` on one
 * Postgres database, one API simulator, one local Slack; 20 brands subscribed with an alert
 * due in every job and a digest due. The replicas run the scheduled jobs; once Slack shows
 * a few posts, the next post is accepted but its answer held (the local Slack's stall), and
 * the replica that made it is killed with SIGKILL: it dies mid-delivery with rows claimed.
 * Then `run-job all` runs beside the two replicas left. At the end: every alert and digest
 * is in the channels exactly once (by the dedupe key in each message's metadata), each
 * scheduled job ran once in its slot, the simulator never saw more than the plan allows
 * (its small "test" plan compressed in time, with no rate-limit headers: only the budget
 * shared through Postgres keeps four processes within it), and the killed replica's claimed rows were settled by the other
 * processes.
 *
 * Waits are bounded polls with generous limits (a busy 2-core machine); nothing depends on
 * how fast anything happens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRun } from '../../src/store/job-runs-repo.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';
import {
  checkApiPacing,
  keyOf,
  type ReplicaWorld,
  type ServeReplica,
  startReplicaWorld,
  waitUntil,
} from './replicas-harness.js';

const BRANDS = 20;
const WINDOW_MS = 3000;
const POLL_JOBS = ['citations', 'crawler', 'ai-pages'] as const;

const database = usePostgresDatabase();
let world: ReplicaWorld;
let replicas: ServeReplica[] = [];

beforeAll(async () => {
  world = await startReplicaWorld({
    brands: BRANDS,
    channels: 4,
    windowMs: WINDOW_MS,
    // The small plan, and no rate-limit headers from the API: only the budget the processes
    // share through Postgres keeps four of them within it (with a budget per process they
    // drew 1 to 7 429s a run). Scale's burst would hold this workload whatever they share.
    plan: 'test',
    databaseUrl: database.url,
  });
}, 180_000);
afterAll(async () => {
  await world?.close();
}, 60_000);

describe('three serve replicas and a run-job on one Postgres', () => {
  it('posts every alert and digest once, runs each job once per slot, keeps to the plan, and hands a killed replica’s rows to the others', async () => {
    const requestsBefore = world.sim.requests.length;
    replicas = await Promise.all(['A', 'B', 'C'].map((n) => world.spawnServe(n)));
    const owners = new Set(replicas.map((r) => r.owner));

    // The scheduled runs first: each poll job and the digest started by a replica.
    await waitUntil(
      'a scheduled run of every job',
      async () => {
        const runs = await world.store.jobRuns.recent(100);
        return [...POLL_JOBS, 'digest'].every((j) =>
          runs.some((r) => r.job === j && owners.has(r.owner ?? '')),
        );
      },
      90_000,
    );

    // Mid-delivery: once Slack shows a few posts, the next post is accepted and never
    // answered; the replica that made it is killed while it waits.
    await waitUntil('the first posts', () => world.posts().length >= 3, 120_000);
    world.slack.stallAfterAccept('chat.postMessage');
    const stalled = await waitUntil(
      'a stalled post',
      () => world.slack.calls.find((c) => c.method === 'chat.postMessage' && c.stalled),
      60_000,
    );
    const stalledKey = String(
      (stalled.args['metadata'] as { event_payload?: { key?: unknown } }).event_payload?.key,
    );
    const stalledRow = await world.store.outbox().getByDedupeKey(stalledKey);
    const victim = replicas.find((r) => r.owner === stalledRow?.leaseOwner);
    expect(victim, `the stalled row ${stalledKey} is held by ${stalledRow?.leaseOwner}`).toBeDefined();
    const postsAtKill = world.posts().length;
    victim!.child.kill('SIGKILL');
    await victim!.exited;
    const orphaned = (await world.store.outbox().listSending()).filter((r) => r.leaseOwner === victim!.owner);
    expect(orphaned.map((r) => r.dedupeKey)).toContain(stalledKey);
    // run-job beside the two replicas left, while they still deliver (started now, so the
    // held answer is certainly the killed replica's: a stalled run-job would never end).
    const runJob = world.spawnRunJob('all');

    // Everything settles: run-job done, no row left to send (leases of the dead run out).
    expect(await runJob.exited, runJob.output()).toBe(0);
    const rows = await waitUntil(
      'every outbox row settled',
      async () => {
        const all = await world.outboxRows();
        return all.length > 0 && all.every((r) => r.status === 'sent' || r.status === 'failed')
          ? all
          : undefined;
      },
      180_000,
      500,
    );
    expect(postsAtKill).toBeGreaterThan(0);
    expect(postsAtKill).toBeLessThan(rows.length);

    // Exactly once: every row sent, its key in the channels once, nothing posted twice.
    expect(rows.filter((r) => r.status !== 'sent')).toEqual([]);
    const posts = world.posts();
    const perKey = new Map<string, number>();
    for (const p of posts) perKey.set(keyOf(p), (perKey.get(keyOf(p)) ?? 0) + 1);
    expect([...perKey].filter(([, n]) => n > 1)).toEqual([]);
    const posted = rows.filter((r) => r.kind !== 'chart' && r.slackTs !== null).map((r) => r.dedupeKey);
    expect([...perKey.keys()].sort()).toEqual([...posted].sort());
    // Each digest's chart once, in its digest's thread.
    const charts = rows.filter((r) => r.kind === 'chart');
    const files = world.channels.flatMap((c) => world.slack.files(c));
    expect(files).toHaveLength(charts.length);
    expect(new Set(files.map((f) => f.thread_ts)).size).toBe(files.length);

    // Every brand: its citations, crawler and AI Pages message and one digest.
    for (const b of world.brands) {
      const mine = rows.filter((r) => r.brandId === b.id && r.channelId === b.channelId);
      expect(
        mine.filter((r) => r.kind === 'digest'),
        b.name,
      ).toHaveLength(1);
      expect(mine.filter((r) => r.kind === 'alert').length, b.name).toBeGreaterThanOrEqual(3);
    }

    // The killed replica's claimed rows: settled by another process, posted once.
    for (const o of orphaned) {
      const row = rows.find((r) => r.id === o.id)!;
      expect(row.status, o.dedupeKey).toBe('sent');
      if (row.kind !== 'chart') expect(perKey.get(o.dedupeKey), o.dedupeKey).toBe(1);
    }

    // Each scheduled job once in its slot: the replicas ran each poll job once, the digest
    // once (run-job's forced runs come on top, by design). The whole test lies in one slot
    // of each poll job (hours long, aligned to UTC midnight) unless it straddles a boundary.
    const runs: JobRun[] = await world.store.jobRuns.recent(200);
    for (const job of [...POLL_JOBS, 'digest']) {
      const byReplicas = runs.filter((r) => r.job === job && owners.has(r.owner ?? ''));
      expect(
        byReplicas.map((r) => r.owner),
        job,
      ).toHaveLength(1);
    }

    // The API: within the plan's bucket, per-endpoint windows and day; no 429.
    const pacing = checkApiPacing(world.sim.requests.slice(requestsBefore), world.limits, WINDOW_MS);
    expect(pacing.rateLimited).toBe(0);
    expect(pacing.bucketExcess).toBeLessThanOrEqual(0);
    for (const [endpoint, w] of Object.entries(pacing.endpoints))
      expect(w.max, endpoint).toBeLessThanOrEqual(w.limit);
    expect(pacing.calls).toBeLessThanOrEqual(world.limits.perDay ?? Number.POSITIVE_INFINITY);
  }, 420_000);

  it('check names the Postgres database without its password, and /healthz reports it reachable', async () => {
    const alive = replicas.find((r) => r.child.exitCode === null && r.child.signalCode === null);
    const serving = alive ?? (await world.spawnServe('D'));
    const health = (await (await fetch(`${serving.url}/healthz`)).json()) as {
      database?: { backend?: string; reachable?: boolean };
    };
    expect(health.database).toMatchObject({ backend: 'postgres', reachable: true });

    const { execFile } = await import('node:child_process');
    const url = new URL(database.url);
    const out = await new Promise<string>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts', 'check'],
        { env: { PATH: process.env['PATH'] ?? '', ...world.env }, timeout: 60_000 },
        (_err, stdout, stderr) => resolve(`${stdout}${stderr}`),
      );
    });
    expect(out).toContain(`${url.hostname}:${url.port}${url.pathname}`);
    if (url.password) expect(out).not.toContain(decodeURIComponent(url.password));
  }, 90_000);
});
